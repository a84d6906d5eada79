import { buttonVariants, useFormat } from '@web/ui';
import { Smartphone } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';

/**
 * How to pay an invoice by UPI: the QR code any UPI app scans (payee, amount and the invoice's number
 * filled in), and on a phone, where the client cannot scan their own screen, a link that opens
 * their UPI app with the same details.
 */
export function UpiPay({ uri, amount, number }: { uri: string; amount: number; number: string }) {
  const format = useFormat();
  const what = `${format.moneyMinor(amount)} for invoice ${number}`;
  return (
    <section
      aria-labelledby="upi-pay"
      className="flex flex-col items-center gap-3 rounded-lg border border-border p-4"
    >
      <h3 id="upi-pay" className="self-start text-sm font-medium">
        Pay by UPI
      </h3>
      <div className="rounded-md bg-white p-3">
        <QRCodeSVG
          value={uri}
          size={176}
          marginSize={2}
          title={`UPI QR code to pay ${what}`}
          role="img"
          aria-label={`UPI QR code to pay ${what}`}
          data-testid="upi-qr"
        />
      </div>
      <p className="text-center text-sm">
        Scan with any UPI app to pay <span className="font-medium">{what}</span>.
      </p>
      <a href={uri} className={buttonVariants({ className: 'w-full sm:hidden' })} data-testid="upi-link">
        <Smartphone aria-hidden="true" />
        Pay with UPI app
      </a>
    </section>
  );
}
