// Sign-up, verification and reset mails as services write them, in English,
// German, French and Spanish, with the codes an agent should find in them
// (best first), and mails where it must find none.

export interface CodeFixture {
  name: string;
  subject: string;
  text?: string;
  html?: string;
  codes: string[];
}

export const CODE_FIXTURES: CodeFixture[] = [
  {
    name: "launch code, eight digits on a line of their own",
    subject: "[GitHub] Please verify your device",
    text: "Hey scout!\n\nA sign in attempt requires further verification because we did not recognize your device.\n\nVerification code: 84915726\n\nIf you did not attempt to sign in to your account, your password may be compromised.\n\nThanks,\nThe GitHub Team",
    codes: ["84915726"],
  },
  {
    name: "G- prefixed code in subject and body",
    subject: "G-482913 is your Google verification code",
    text: "Google\n\nVerify your email address\n\nG-482913\n\nThis code expires in 10 minutes. © 2026 Google LLC, 1600 Amphitheatre Parkway, Mountain View, CA 94043",
    codes: ["482913"],
  },
  {
    name: "reset with a code",
    subject: "Reset your password",
    text: "Hi,\n\nWe received a request to reset your password. Use this code to reset it:\n\n739201\n\nThe code is valid for 15 minutes. If you did not ask for this, ignore this email.",
    codes: ["739201"],
  },
  {
    name: "reset with a link only",
    subject: "Reset your password",
    text: "Hi,\n\nClick the link below to choose a new password:\nhttps://accounts.example.com/reset?token=8f3a9c2e71b4&uid=48213\n\nThis link expires in 24 hours.\n\n© 2026 Example Inc.",
    codes: [],
  },
  {
    name: "four-digit security code",
    subject: "Your Microsoft account security code",
    text: "Microsoft account\n\nSecurity code\n\nPlease use the following security code for the Microsoft account sc***@mail.example.\n\nSecurity code: 4829\n\nIf you don't recognize the Microsoft account sc***@mail.example, you can click here to remove your email address from that account.\n\nThanks,\nThe Microsoft account team",
    codes: ["4829"],
  },
  {
    name: "one time password",
    subject: "Your One Time Password",
    text: "Your One Time Password (OTP) is: 553812\n\nDo not share this OTP with anyone. Amazon takes your account security very seriously.",
    codes: ["553812"],
  },
  {
    name: "code with a phone number to call",
    subject: "Verify your login",
    text: "Your verification code is 128734.\n\nIf you didn't request this, call us at +1 (800) 555-0199 right away.",
    codes: ["128734"],
  },
  {
    name: "order confirmation: an order number and a price, no code",
    subject: "Your order has been confirmed",
    text: "Thanks for your order!\n\nOrder #112-4829133-5512345 is confirmed.\nOrder number: 48291335\nTotal: $49.99\nEstimated delivery: 2026-12-01",
    codes: [],
  },
  {
    name: "newsletter with a promo code",
    subject: "Spring sale: 25% off",
    text: "Spring is here! Use promo code SPRING25 at checkout for 25% off everything. Confirm your subscription preferences any time.",
    codes: [],
  },
  {
    name: "shipping notification with a tracking number",
    subject: "Your package is on its way",
    text: "Good news! Your package has shipped.\n\nTracking number: 1Z999AA10123456784\nCarrier: UPS\n\nPlease confirm the delivery address in your account.",
    codes: [],
  },
  {
    name: "welcome with a year in the footer, confirmation by link",
    subject: "Welcome to Example",
    text: "Welcome aboard!\n\nPlease confirm your account by clicking the button in this email.\n\n© 2026 Example Inc. All rights reserved.",
    codes: [],
  },
  {
    name: "capitals and digits token",
    subject: "Your verification token",
    text: "Use the following verification token to finish signing up:\n\nK7P2QX\n\nIt expires in 30 minutes.",
    codes: ["K7P2QX"],
  },
  {
    name: "HTML only, code in a styled table, an address in the footer",
    subject: "Confirm your email",
    html: `<html><head><style>td { font-family: Arial; } .code { font-size: 32px }</style></head><body>
      <table><tr><td><h1>Confirm your email address</h1></td></tr>
      <tr><td>Your confirmation code is below. Enter it in your open browser window.</td></tr>
      <tr><td class="code"><strong>619204</strong></td></tr>
      <tr><td>If you didn't request this email, there's nothing to worry about.</td></tr></table>
      <p style="color:#999">Example Technologies, 500 Howard Street, San Francisco, CA 94105</p>
      <script>var tracking = 123456;</script></body></html>`,
    codes: ["619204"],
  },
  {
    name: "code only in the subject",
    subject: "Your login code: 664422",
    text: "Use the code in the subject line to log in. It works once.",
    codes: ["664422"],
  },
  {
    name: "HTML only, a verify button and nothing to type",
    subject: "Verify Email Address for Discord",
    html: `<div><h2>Hey scout,</h2><p>Thanks for registering for an account on Discord! Before we get started, we just need to confirm that this is you. Click below to verify your email address:</p><p><a href="https://click.discord.com/ls/click?upn=3f9a2b">Verify Email</a></p><p>Sent by Discord • 444 De Haro Street #200, San Francisco, CA 94107</p></div>`,
    codes: [],
  },
  {
    name: "digits in two groups joined by a hyphen",
    subject: "Stripe verification",
    text: "Your Stripe verification code is: 193-847\n\nDon't share it with anyone.",
    codes: ["193847"],
  },
  {
    name: "German confirmation code",
    subject: "Ihr Bestätigungscode",
    text: "Hallo,\n\nIhr Bestätigungscode lautet: 583920\n\nDer Code ist 10 Minuten gültig.\n\nMit freundlichen Grüßen\nIhr Team",
    codes: ["583920"],
  },
  {
    name: "German verification code, four digits",
    subject: "Verifizierung",
    text: "Dein Verifizierungscode: 7712\n\nBitte gib ihn in der App ein.",
    codes: ["7712"],
  },
  {
    name: "German order confirmation",
    subject: "Bestellbestätigung",
    text: "Vielen Dank für Ihren Einkauf!\n\nIhre Bestellung Nr. 4829103 ist bestätigt.\nGesamtbetrag: 59,90 €\nLieferung bis 03.12.2026",
    codes: [],
  },
  {
    name: "German, HTML only, an invoice number beside the code",
    subject: "E-Mail-Adresse bestätigen",
    html: "<p>Bitte bestätigen Sie Ihre E-Mail-Adresse mit folgendem Code:</p><p><strong>904215</strong></p><p>Rechnung 2026-0042 finden Sie im Kundenkonto.</p>",
    codes: ["904215"],
  },
  {
    name: "French verification code",
    subject: "Votre code de vérification",
    text: "Bonjour,\n\nVotre code de vérification est 318204.\n\nCe code expire dans 10 minutes.",
    codes: ["318204"],
  },
  {
    name: "French login code",
    subject: "Connexion à votre compte",
    text: "Code de connexion : 664213\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez ce message.",
    codes: ["664213"],
  },
  {
    name: "French invoice",
    subject: "Votre facture est disponible",
    text: "Bonjour,\n\nVotre facture n° 2026-1234 d'un montant de 59,90 € est disponible. Merci de confirmer sa réception.",
    codes: [],
  },
  {
    name: "Spanish verification code",
    subject: "Código de verificación",
    text: "Hola,\n\nTu código de verificación es 771204.\n\nNo lo compartas con nadie.",
    codes: ["771204"],
  },
  {
    name: "Spanish confirmation code in two groups of four",
    subject: "Confirma tu cuenta",
    text: "Código de confirmación: 4821-9904\n\nIntrodúcelo en la aplicación para continuar.",
    codes: ["48219904"],
  },
  {
    name: "Spanish order",
    subject: "Pedido confirmado",
    text: "¡Gracias por tu compra! Tu pedido 90211234 ha sido confirmado. Total: 35,00 €",
    codes: [],
  },
  {
    name: "sign-up link with a token inside the URL",
    subject: "Confirm your sign-up",
    text: "Thanks for signing up! Click the link to confirm:\nhttps://example.com/confirm?token=ABC123XYZ&code=998877\n\nSee you soon.",
    codes: [],
  },
  {
    name: "HTML only newsletter, no code",
    subject: "This week at Example",
    html: "<h1>This week</h1><p>Five things we shipped in 2026, and what comes next.</p><p><a href='https://example.com/blog'>Read more</a></p><p>Unsubscribe or manage preferences. Example Inc, 100 Main St, Springfield 12345</p>",
    codes: [],
  },
  {
    name: "verify by phone, no code",
    subject: "Verify your identity",
    text: "To verify your identity, call us at 0800 123 4567 between 9:00 and 17:00.",
    codes: [],
  },
  {
    name: "PIN for a card",
    subject: "Your new PIN",
    text: "Your temporary PIN is 2841. Change it at the next ATM you use.",
    codes: ["2841"],
  },
  {
    name: "passcode in HTML with a code after its words",
    subject: "Your Zoom passcode",
    html: "<p>Your passcode for the meeting is</p><h2>58213947</h2><p>Meeting ID: 845 2231 9904</p>",
    codes: ["58213947"],
  },
  {
    name: "two-factor code among a date and a time",
    subject: "Sign-in attempt",
    text: "A sign-in attempt was made on 2026-11-23 at 10:42 from Berlin, Germany.\n\nIf this was you, enter this code: 305917",
    codes: ["305917"],
  },
  {
    name: "account number named as such near the word verify",
    subject: "Verify your details",
    text: "Please verify the details of account number 55018823 in your profile. No action is needed if they are right.",
    codes: [],
  },
];
