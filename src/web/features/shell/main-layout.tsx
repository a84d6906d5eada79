import { Outlet } from '@tanstack/react-router';
import { ThemeToggle } from '@web/ui';
import { Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { identifyChatUser } from '../../lib/chat-widget';
import { ProfileDialogHost } from '../account/profile-dialog-host';
import { NotificationBell } from '../notifications/notification-bell';
import { TimerControl } from '../timesheets/timer-control';
import { Sidebar } from './sidebar';
import { useProfile } from './use-profile';
import { UserMenu } from './user-menu';

/** The staff main layout: sidebar (a drawer below lg), top bar with the user menu, the page. */
export function MainLayout() {
  const profile = useProfile();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    void identifyChatUser(profile);
  }, [profile]);
  return (
    <div className="flex h-full">
      <aside className="hidden w-60 shrink-0 border-r border-border bg-sidebar lg:block">
        <Sidebar profile={profile} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 shrink-0 items-center gap-3 border-b border-border bg-surface px-4">
          <Dialog.Root open={open} onOpenChange={setOpen}>
            <Dialog.Trigger aria-label="Open navigation" className="rounded-md p-2 hover:bg-muted lg:hidden">
              <Menu aria-hidden className="size-5" />
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
              <Dialog.Content className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] bg-sidebar shadow-xl">
                <Dialog.Title className="sr-only">Navigation</Dialog.Title>
                <Dialog.Description className="sr-only">The areas of the practice</Dialog.Description>
                <Dialog.Close
                  aria-label="Close navigation"
                  className="absolute right-2 top-2 rounded-md p-2 hover:bg-muted"
                >
                  <X aria-hidden className="size-5" />
                </Dialog.Close>
                <Sidebar profile={profile} onNavigate={() => setOpen(false)} />
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
          <div className="flex-1" />
          <TimerControl />
          <NotificationBell />
          <ThemeToggle />
          <UserMenu profile={profile} />
          <ProfileDialogHost />
        </header>
        <main id="main" className="min-h-0 flex-1 overflow-y-auto">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
