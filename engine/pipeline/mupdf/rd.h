// rd.h: the small C layer between package mupdf and MuPDF. Every MuPDF
// call runs inside fz_try/fz_catch here, so no MuPDF exception (a
// longjmp) ever crosses into Go; failures come back as an RD_* code and a
// message in a caller-provided buffer of RD_ERRLEN bytes.
#ifndef REDACTD_RD_H
#define REDACTD_RD_H

#include <stddef.h>
#include <stdint.h>
#include <mupdf/fitz.h>

enum {
	RD_OK = 0,
	RD_ERR = 1,       // any other failure
	RD_CORRUPT = 2,   // the file cannot be opened as a PDF
	RD_ENCRYPTED = 3, // a user password is needed
	RD_NOPAGES = 4,   // the document has no pages
	RD_ABORTED = 5,   // the cookie was aborted
	RD_NOMEM = 6,     // allocation failed (memory cap or system)
};

#define RD_ERRLEN 256

// Sources of text, in the order a page's display lists are drawn.
enum { RD_SRC_CONTENTS = 0, RD_SRC_ANNOTS = 1, RD_SRC_WIDGETS = 2, RD_NSRC = 3 };

typedef struct rd_doc rd_doc;

// rd_char is one character of structured text: its Unicode value, the
// line it belongs to (numbered across the page), its source and its quad
// (ul, ur, ll, lr as x,y pairs) in display space, and which font drew it
// (a key made of the font object's address and a hash of its name, the
// same for every character the same loaded font draws in a document)
// and whether that font is plain.
typedef struct {
	int c;
	int line;
	int src;
	float q[8];
	uint64_t font;
	int plain; // the font cannot say other than what it draws (see rd.c)
} rd_char;

typedef struct {
	float x0, y0, x1, y1;
} rd_rect;

#define RD_MAX_EVICT 8

// rd_page is a loaded page: one display list per source (page contents,
// annotations, widgets), drawn in that order, and the page's text and
// image boxes until rd_free_text releases them.
typedef struct {
	fz_display_list *lists[RD_NSRC];
	float w, h;
	int color; // nonzero when anything drawn is not gray (fz_new_test_device)
	rd_char *chars;
	int nchars;
	rd_rect *images;
	int nimages;
	rd_rect *hidden; // boxes of invisible (render mode 3) text
	int nhidden;
	// A picture page's own images (its XObject dict's), whose cached
	// decodes rd_drop_page evicts: see rd_note_images.
	struct pdf_obj *evict[RD_MAX_EVICT];
	int nevict;
} rd_page;

int rd_open(const unsigned char *data, size_t len, const char *path, size_t store, size_t maxmem,
	int64_t maxdecoded, rd_doc **out, int *npages, char *err);
extern int rd_stext_icc;
int rd_load_page(rd_doc *d, int number, fz_cookie *cookie, rd_page **out, char *err);
void rd_free_text(rd_page *p);
int rd_render(rd_doc *d, rd_page *p, float scale, int w, int h, int stride, int gray,
	unsigned char *samples, fz_cookie *cookie, char *err);
void rd_drop_page(rd_doc *d, rd_page *p);
void rd_close(rd_doc *d);
size_t rd_mem_used(rd_doc *d);
size_t rd_mem_used_all(void);

fz_cookie *rd_new_cookie(void);
void rd_abort_cookie(fz_cookie *c);

#endif
