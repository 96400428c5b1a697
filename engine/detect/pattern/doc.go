// Package pattern holds the validated pattern recognizers: e-mail
// addresses (with their obfuscations), social-media user handles
// ("@name", masked as a Person), phone numbers (libphonenumber's
// numbering plans), IBANs (mod-97), payment cards (Luhn and issuer
// ranges), people's identity, tax and social-security numbers (their
// check digits, or a label; nationalid.go) and dates (calendars in
// several languages). Each validates what
// it matches, because a redaction service that masks every number is as
// useless as one that masks none. Each is a function over a view.View;
// engine/detect wraps them as Detectors (detect.Recognizers).
package pattern
