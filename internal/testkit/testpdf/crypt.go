package testpdf

import (
	"crypto/md5"
	"crypto/rc4"
	"encoding/binary"
	"fmt"
)

// encryption implements the PDF standard security handler, revision 2:
// RC4 with a 40-bit key (ISO 32000-1, 7.6.3, algorithms 1 to 4). It is the
// simplest real encryption a PDF reader must accept, enough for tests that
// check how encrypted documents are refused or opened.
type encryption struct {
	key  []byte // 5-byte file key
	o, u []byte
	p    int32
}

// passwordPad is the padding string of algorithm 2.
var passwordPad = []byte{
	0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
	0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
}

func pad(pw string) []byte {
	b := append([]byte(pw), passwordPad...)
	return b[:32]
}

func rc4Crypt(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		panic(err) // key lengths used here (5 and 10 bytes) are always valid
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}

func newEncryption(user, owner string, id []byte) *encryption {
	if owner == "" {
		owner = user
	}
	e := &encryption{p: -4} // all permissions
	// Algorithm 3: the O entry.
	ok := md5Sum(pad(owner))
	e.o = rc4Crypt(ok[:5], pad(user))
	// Algorithm 2: the file key.
	h := md5.New()
	h.Write(pad(user))
	h.Write(e.o)
	binary.Write(h, binary.LittleEndian, e.p)
	h.Write(id)
	e.key = h.Sum(nil)[:5]
	// Algorithm 4: the U entry.
	e.u = rc4Crypt(e.key, passwordPad)
	return e
}

// crypt encrypts (or decrypts: RC4 is symmetric) data of object n,
// generation 0, by algorithm 1.
func (e *encryption) crypt(n int, data []byte) []byte {
	k := append(append([]byte(nil), e.key...), byte(n), byte(n>>8), byte(n>>16), 0, 0)
	sum := md5.Sum(k)
	return rc4Crypt(sum[:len(e.key)+5], data)
}

func (e *encryption) dict() string {
	return fmt.Sprintf("<< /Filter /Standard /V 1 /R 2 /Length 40 /O <%x> /U <%x> /P %d >>", e.o, e.u, e.p)
}

func md5Sum(b []byte) [16]byte { return md5.Sum(b) }
