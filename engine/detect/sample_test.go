package detect

// samplePage is a synthetic letter of about 400 words: names, addresses,
// numbers of every kind and ordinary prose with capitalised common words.
const samplePage = `Northwind Legal Services LLC
1847 Willow Creek Road, Suite 210
Portland, OR 97205
Tel. (503) 555-0182 | Fax (503) 555-0199
m.thompson@northwind-legal.com

March 14, 2024

Margaret Thompson
Senior Counsel

Re: Settlement of account 55-1029 and invoice INV-2023-0419

Dear Mr. Okafor,

Thank you for your letter of 12/03/2023 concerning the outstanding balance on your account. Will you
please review the enclosed statement before the Grace period ends? May I also remind you that the Total
due includes the late fee of $1,234.56 agreed in version 2.5 of the contract, clause 4.1.3.

As discussed with Daniel Okafor on the phone, payment may be made by bank transfer to IBAN
GB82 WEST 1234 5698 7654 32 (BIC WESTGB2L) or by card. The card ending in 1111 on file, number
4111-1111-1111-1111, will not be charged without your written consent. Please Mark the box on page 3
of the form and Bill the remaining amount to the company account.

Our office at 1847 Willow Creek Road is open Monday to Friday from 9:00 to 17:30. Street lights were
out last week, so please use the north entrance. If you prefer to meet in person, our partner office in
Germany, Müller & Partner GmbH, Hauptstraße 5, 10115 Berlin, can receive you; contact Herr Schmidt at
+49 30 901820 or schmidt [at] mueller-partner [dot] de.

The hearing was moved from 3 to 5 April 2024 to the 15th of May 2024. Documents must arrive by
2024-05-01T12:00:00Z at the latest. Copies were sent on 02.05.2024 to the court registry.

For any question about this matter, reference 2024/118, call our switchboard. Items 1 through 12 of
the schedule remain unchanged; items 13 and 14 were added on request of the other party's counsel,
Ms. Priya Raman of Raman & Associates Ltd., 22 Baker Street, London W1U 3BW.

We would like to settle this matter amicably. A proposal with a payment plan of 6 instalments of
$205.76 each is attached. Please sign and return one copy within 14 days, or let us know if the terms
need to change. Our accountant, Sarah Lindqvist, can answer questions about the figures.

Kind regards,

Margaret Thompson
Senior Counsel, Northwind Legal Services LLC
P.O. Box 4410, Portland, OR 97208
`
