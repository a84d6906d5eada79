import { greeting } from '@domain/dates';
import { useProfile } from '../shell/use-profile';

/** The home dashboard. Each feature adds what a member needs to see first thing in the day. */
export function HomePage() {
  const profile = useProfile();
  const today = new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: profile.org.timeZone,
  }).format(new Date());
  return (
    <div className="mx-auto max-w-6xl p-6">
      <p className="text-sm text-muted-fg">{today}</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">
        {greeting()}, {profile.firstName || profile.fullName}
      </h1>
      <p className="mt-1 text-muted-fg">{profile.org.name}</p>
    </div>
  );
}
