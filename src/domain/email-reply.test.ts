import { describe, expect, it } from 'vitest';
import { baseSubject, trimReply } from './email-reply';

describe('trimReply', () => {
  it('cuts the quoted history of Gmail and Apple Mail, even when the header wraps', () => {
    expect(
      trimReply(
        'Thanks, attached.\n\nOn Tue, 3 Jun 2026 at 10:00, Priya Mehta <p@x.in>\nwrote:\n> Please send it',
      ),
    ).toBe('Thanks, attached.');
  });
  it("cuts Outlook's original message and its From/Sent block", () => {
    expect(trimReply('Done.\r\n\r\n-----Original Message-----\r\nFrom: A\r\nSent: today')).toBe('Done.');
    expect(trimReply('Done.\n\nFrom: Sharma & Associates <x@y.in>\nSent: Monday\nTo: me')).toBe('Done.');
  });
  it('drops a signature and the phone line, and trailing quoted lines', () => {
    expect(trimReply('Yes please.\n-- \nPriya Mehta\nDirector')).toBe('Yes please.');
    expect(trimReply('Ok\n\nSent from my iPhone')).toBe('Ok');
    expect(trimReply('Fine by me.\n\n> earlier text\n> more')).toBe('Fine by me.');
  });
  it('keeps a reply with nothing to trim whole, and a quote inside the text', () => {
    expect(trimReply('Line one\n> a quote I mean\nLine three')).toBe(
      'Line one\n> a quote I mean\nLine three',
    );
  });
});

describe('baseSubject', () => {
  it('strips reply and forward prefixes, repeated', () => {
    expect(baseSubject('Re: Fwd: RE: Your ITR')).toBe('Your ITR');
    expect(baseSubject('Your ITR')).toBe('Your ITR');
  });
});
