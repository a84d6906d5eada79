import { describeUserAgent } from '@domain/security';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  CardHeader,
  CardTitle,
  confirm,
  EmptyState,
  Skeleton,
  toast,
  useFormat,
} from '@web/ui';
import { fetchAuthSession, fetchDevices, forgetDevice } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { MonitorSmartphone } from 'lucide-react';
import { authErrorMessage, showAuthError } from '../auth/auth-errors';

type TDevice = {
  id: string;
  name: string;
  fullName: string | null;
  address: string | null;
  lastSignIn: Date | undefined;
  remembered: boolean;
  current: boolean;
};

const DEVICES_KEY = ['identity', 'devices'] as const;

/**
 * The person's devices as the identity provider tracks them (Amplify's ListDevices, which works the
 * same against a Cognito pool); this browser's is the one its access token names.
 */
async function loadDevices(): Promise<TDevice[]> {
  const [devices, session] = await Promise.all([fetchDevices(), fetchAuthSession()]);
  const currentKey = session.tokens?.accessToken.payload.device_key;
  return devices
    .map((d) => ({
      id: d.id,
      name: describeUserAgent(d.name) ?? 'Unnamed device',
      fullName: d.name ?? null,
      address: d.attributes?.last_ip_used ?? null,
      lastSignIn: d.lastAuthenticatedDate ?? d.createDate,
      remembered: d.attributes?.['dev:device_remembered_status'] === 'remembered',
      current: d.id === currentKey,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Remembered devices: forget one, or every one but this browser's. */
export function SecurityDevices() {
  const queryClient = useQueryClient();
  const format = useFormat();
  const devices = useQuery({ queryKey: DEVICES_KEY, queryFn: loadDevices, retry: false });
  const refresh = () => queryClient.invalidateQueries({ queryKey: DEVICES_KEY });

  const forgetOne = useMutation({
    mutationFn: (device: TDevice) => forgetDevice({ device: { id: device.id } }),
    onSuccess: () => toast.success('Device forgotten'),
    onError: showAuthError,
    onSettled: refresh,
  });
  const forgetOthers = useMutation({
    // Cognito has no "forget all": one call per device (at most 60, the pool's list limit).
    mutationFn: async (others: TDevice[]) => {
      for (const device of others) await forgetDevice({ device: { id: device.id } });
      return others.length;
    },
    onSuccess: (n) => toast.success(n === 1 ? 'Forgot 1 other device' : `Forgot ${n} other devices`),
    onError: showAuthError,
    onSettled: refresh,
  });

  async function askForget(device: TDevice) {
    const ok = await confirm({
      title: `Forget ${device.name}?`,
      message: device.current
        ? 'This browser will be treated as a new device at your next sign-in.'
        : 'It will be treated as a new device the next time it signs in.',
      confirmLabel: 'Forget device',
      danger: true,
    });
    if (ok) forgetOne.mutate(device);
  }

  async function askForgetOthers(others: TDevice[]) {
    const ok = await confirm({
      title: 'Forget all other devices?',
      message: `${others.length === 1 ? '1 device' : `${others.length} devices`} will be treated as new the next time they sign in. This browser stays remembered.`,
      confirmLabel: 'Forget others',
      danger: true,
    });
    if (ok) forgetOthers.mutate(others);
  }

  const list = devices.data ?? [];
  const others = list.filter((d) => !d.current);
  return (
    <Card aria-labelledby="devices-title">
      <CardHeader>
        <div>
          <CardTitle id="devices-title">Remembered devices</CardTitle>
          <p className="text-sm text-muted-fg">
            Browsers that have signed in to your account. Forget any you do not recognise.
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          disabled={others.length === 0 || forgetOne.isPending}
          loading={forgetOthers.isPending}
          onClick={() => void askForgetOthers(others)}
        >
          Forget all others
        </Button>
      </CardHeader>
      {devices.isPending ? (
        <div className="flex flex-col gap-3 p-4" aria-busy="true">
          <Skeleton className="h-12" />
          <Skeleton className="h-12" />
        </div>
      ) : devices.isError ? (
        <div className="flex items-center justify-between gap-3 p-4 text-sm" role="alert">
          <span>Your devices could not be loaded: {authErrorMessage(devices.error)}</span>
          <Button variant="outline" size="sm" onClick={() => void devices.refetch()}>
            Try again
          </Button>
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          icon={MonitorSmartphone}
          title="No remembered devices"
          message="A browser shows up here once it has signed in."
        />
      ) : (
        <ul className="divide-y divide-border" aria-label="Devices">
          {list.map((device) => (
            <li key={device.id} className="flex items-center gap-3 px-4 py-3">
              <MonitorSmartphone aria-hidden className="size-5 shrink-0 text-muted-fg" />
              <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span
                  className="flex flex-wrap items-center gap-2 text-sm font-medium"
                  title={device.fullName ?? undefined}
                >
                  {device.name}
                  {device.current ? <Badge tone="primary">This browser</Badge> : null}
                  {device.remembered ? <Badge tone="green">Remembered</Badge> : null}
                </span>
                <span className="text-xs text-muted-fg">
                  Last sign-in {format.dateTime(device.lastSignIn)}
                  {device.address ? ` · ${device.address}` : ''}
                </span>
              </div>
              <Button
                variant="ghost"
                size="sm"
                disabled={forgetOthers.isPending}
                loading={forgetOne.isPending && forgetOne.variables?.id === device.id}
                onClick={() => void askForget(device)}
                aria-label={`Forget ${device.name}${device.current ? ' (this browser)' : `, last signed in ${format.dateTime(device.lastSignIn)}`}`}
              >
                Forget
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
