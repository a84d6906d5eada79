import { QRCodeSVG } from 'qrcode.react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

// The hosted page runs no script, so its QR code is drawn here: the same qrcode.react component the
// app's set-up screen uses, rendered to a static SVG.

export function qrCodeSvg(value: string): string {
  return renderToStaticMarkup(
    createElement(QRCodeSVG, {
      value,
      size: 176,
      marginSize: 2,
      title: 'QR code for your authenticator app',
    }),
  );
}
