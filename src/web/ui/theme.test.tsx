// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { setTheme, THEME_STORAGE_KEY } from './theme';
import { ThemeToggle } from './theme-toggle';
import './test-setup';

async function choose(name: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Theme' }));
  await userEvent.click(await screen.findByRole('menuitemradio', { name }));
}

describe('theme', () => {
  beforeEach(() => {
    setTheme('light');
    window.localStorage.clear();
  });

  it('dark adds the class on <html> and stores the choice', async () => {
    render(<ThemeToggle />);
    await choose('Dark');
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });

  it('light removes the class and stores the choice', async () => {
    setTheme('dark');
    render(<ThemeToggle />);
    await choose('Light');
    expect(document.documentElement).not.toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it('system removes the key, which is how theme.js reads "follow the system"', async () => {
    setTheme('dark');
    render(<ThemeToggle />);
    await choose('System');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    // happy-dom reports a light system.
    expect(document.documentElement).not.toHaveClass('dark');
  });

  it('marks the current choice in the menu', async () => {
    setTheme('dark');
    render(<ThemeToggle />);
    await userEvent.click(screen.getByRole('button', { name: 'Theme' }));
    expect(await screen.findByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });
});
