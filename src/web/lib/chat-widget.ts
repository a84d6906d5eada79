import { appConfig } from './config';

// The support chat is Chatwoot's website widget: its SDK is served by the configured Chatwoot
// installation (self-hosted or cloud), so no third-party host is ever hard-coded here.

type TChatUser = { id: string; fullName: string; email: string; picture: string | null };

type TChatwoot = {
  setUser: (identifier: string, user: { name: string; email: string; avatar_url?: string }) => void;
  reset: () => void;
};

declare global {
  interface Window {
    chatwootSDK?: { run: (options: { websiteToken: string; baseUrl: string }) => void };
    $chatwoot?: TChatwoot;
    chatwootSettings?: Record<string, unknown>;
  }
}

let loading: Promise<TChatwoot | null> | null = null;
let identified: string | null = null;

function load(): Promise<TChatwoot | null> {
  const chat = appConfig.chat;
  if (!chat) return Promise.resolve(null);
  loading ??= new Promise((resolve) => {
    window.chatwootSettings = { position: 'right', type: 'standard', launcherTitle: 'Help' };
    window.addEventListener('chatwoot:ready', () => resolve(window.$chatwoot ?? null), { once: true });
    const script = document.createElement('script');
    script.async = true;
    script.src = `${chat.baseUrl}/packs/js/sdk.js`;
    script.onload = () => window.chatwootSDK?.run({ websiteToken: chat.websiteToken, baseUrl: chat.baseUrl });
    script.onerror = () => resolve(null);
    document.body.appendChild(script);
  });
  return loading;
}

/** Shows the widget for the signed-in member, as that member (id, full name, email, picture). */
export async function identifyChatUser(user: TChatUser): Promise<void> {
  const chatwoot = await load();
  if (!chatwoot || identified === user.id) return;
  // Another person on this browser: their conversation must not carry over.
  if (identified) chatwoot.reset();
  chatwoot.setUser(user.id, {
    name: user.fullName,
    email: user.email,
    ...(user.picture ? { avatar_url: user.picture } : {}),
  });
  identified = user.id;
}

/** On sign-out: the widget forgets the person and their conversation. */
export function resetChat(): void {
  if (window.$chatwoot) window.$chatwoot.reset();
  identified = null;
}
