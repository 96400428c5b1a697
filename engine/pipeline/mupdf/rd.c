// rd.c: see rd.h. Threading model (MuPDF's own, see its docs on
// multi-threading): each document has a base context with locks, used
// only under the Go-side document mutex (opening, loading pages). Renders
// and page drops run on contexts cloned from a template context that is
// never used for anything else, kept in a small pool, so any number of
// goroutines may render display lists of the same document at once.
#include "rd.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "_cgo_export.h"

// From MuPDF's pdf headers, which go-fitz does not ship; the library has
// them.
typedef struct pdf_page pdf_page;
typedef struct pdf_annot pdf_annot;
typedef struct pdf_document pdf_document;
typedef struct pdf_obj pdf_obj;
pdf_page *pdf_page_from_fz_page(fz_context *ctx, fz_page *ptr);
pdf_document *pdf_document_from_fz_document(fz_context *ctx, fz_document *ptr);
int pdf_update_annot(fz_context *ctx, pdf_annot *annot);
pdf_annot *pdf_first_annot(fz_context *ctx, pdf_page *page);
pdf_annot *pdf_next_annot(fz_context *ctx, pdf_annot *annot);
pdf_annot *pdf_first_widget(fz_context *ctx, pdf_page *page);
pdf_annot *pdf_next_widget(fz_context *ctx, pdf_annot *prev);
void pdf_dirty_annot(fz_context *ctx, pdf_annot *annot);
pdf_obj *pdf_annot_obj(fz_context *ctx, pdf_annot *annot);
pdf_obj *pdf_dict_gets(fz_context *ctx, pdf_obj *dict, const char *key);
void pdf_dict_puts_drop(fz_context *ctx, pdf_obj *dict, const char *key, pdf_obj *val);
int pdf_is_string(fz_context *ctx, pdf_obj *obj);
size_t pdf_to_str_len(fz_context *ctx, pdf_obj *obj);
char *pdf_to_str_buf(fz_context *ctx, pdf_obj *obj);
pdf_obj *pdf_new_string(fz_context *ctx, const char *str, size_t len);
pdf_obj *pdf_lookup_page_obj(fz_context *ctx, pdf_document *doc, int needle);
int pdf_array_len(fz_context *ctx, pdf_obj *array);
pdf_obj *pdf_array_get(fz_context *ctx, pdf_obj *array, int i);
int pdf_is_dict(fz_context *ctx, pdf_obj *obj);
pdf_obj *pdf_trailer(fz_context *ctx, pdf_document *doc);
pdf_obj *pdf_dict_getp(fz_context *ctx, pdf_obj *dict, const char *path);
int pdf_to_bool(fz_context *ctx, pdf_obj *obj);
int pdf_dict_len(fz_context *ctx, pdf_obj *dict);
pdf_obj *pdf_dict_get_val(fz_context *ctx, pdf_obj *dict, int idx);
const char *pdf_to_name(fz_context *ctx, pdf_obj *obj);
pdf_obj *pdf_page_resources(fz_context *ctx, pdf_page *page);
pdf_obj *pdf_keep_obj(fz_context *ctx, pdf_obj *obj);
void pdf_drop_obj(fz_context *ctx, pdf_obj *obj);
void *pdf_find_item(fz_context *ctx, fz_store_drop_fn *drop, pdf_obj *key);
void pdf_remove_item(fz_context *ctx, fz_store_drop_fn *drop, pdf_obj *key);
extern fz_document_handler pdf_document_handler;

#define RD_POOL 16

struct rd_doc {
	fz_context *ctx;  // base context: document operations only
	fz_context *tmpl; // clone source for worker contexts
	unsigned char *data; // the file, copied out of Go memory (NULL when opened from a path)
	fz_stream *stm;
	fz_document *doc;
	pthread_mutex_t locks[FZ_LOCK_MAX];
	pthread_mutex_t pool_mu;
	fz_context *pool[RD_POOL];
	int npool;
	int need_appearances; // the AcroForm's NeedAppearances is true
	atomic_size_t used;   // bytes allocated by MuPDF for this document
	size_t maxmem;      // 0: no cap
	int64_t maxdecoded; // see rd_call; 0: no cap
};

// Logging: MuPDF's warnings and errors may quote document content, so they
// never go to stderr; Go logs them at debug level.
static void rd_warn_cb(void *user, const char *msg) { rdLog(0, (char *)msg); }
static void rd_error_cb(void *user, const char *msg) { rdLog(1, (char *)msg); }

static void rd_quiet(fz_context *ctx)
{
	fz_set_warning_callback(ctx, rd_warn_cb, NULL);
	fz_set_error_callback(ctx, rd_error_cb, NULL);
}

// Locks for MuPDF's shared state (allocator, FreeType, glyph cache).
static void rd_lock(void *user, int lock) { pthread_mutex_lock(&((rd_doc *)user)->locks[lock]); }
static void rd_unlock(void *user, int lock) { pthread_mutex_unlock(&((rd_doc *)user)->locks[lock]); }

// Allocator counting bytes per document so a hostile file cannot take all
// memory: above maxmem allocations fail, MuPDF first empties its store to
// make room and then throws, and the page fails instead of the process.
typedef struct {
	size_t size;
	size_t pad; // keeps the user block 16-byte aligned
} rd_hdr;

// rd_all_used is what MuPDF holds for every open document together.
static atomic_size_t rd_all_used;

size_t rd_mem_used_all(void) { return atomic_load(&rd_all_used); }

// rd_count adds n bytes to document d's count and to the process's
// (subtracts them when freed is set).
static void rd_count(rd_doc *d, size_t n, int freed)
{
	if (freed) {
		atomic_fetch_sub(&d->used, n);
		atomic_fetch_sub(&rd_all_used, n);
	} else {
		atomic_fetch_add(&d->used, n);
		atomic_fetch_add(&rd_all_used, n);
	}
}

static int rd_room(rd_doc *d, size_t more)
{
	return d->maxmem == 0 || atomic_load(&d->used) + more <= d->maxmem;
}

static void *rd_malloc(void *user, size_t size)
{
	rd_doc *d = user;
	if (size > SIZE_MAX - sizeof(rd_hdr) || !rd_room(d, size))
		return NULL;
	rd_hdr *h = malloc(sizeof(rd_hdr) + size);
	if (!h)
		return NULL;
	h->size = size;
	rd_count(d, size, 0);
	return h + 1;
}

static void rd_free(void *user, void *p)
{
	rd_doc *d = user;
	if (!p)
		return;
	rd_hdr *h = (rd_hdr *)p - 1;
	rd_count(d, h->size, 1);
	free(h);
}

static void *rd_realloc(void *user, void *p, size_t size)
{
	rd_doc *d = user;
	if (!p)
		return rd_malloc(user, size);
	if (size == 0) {
		rd_free(user, p);
		return NULL;
	}
	rd_hdr *h = (rd_hdr *)p - 1;
	size_t old = h->size;
	if (size > SIZE_MAX - sizeof(rd_hdr) || (size > old && !rd_room(d, size - old)))
		return NULL;
	rd_hdr *n = realloc(h, sizeof(rd_hdr) + size);
	if (!n)
		return NULL;
	n->size = size;
	if (size > old)
		rd_count(d, size - old, 0);
	else
		rd_count(d, old - size, 1);
	return n + 1;
}

size_t rd_mem_used(rd_doc *d) { return atomic_load(&d->used); }

// Guarded streams.
//
// MuPDF checks its cookie between content stream operators and display
// list nodes, but not while a filter inflates or the lexer skips
// whitespace, so a content stream that inflates to many gigabytes of
// blanks (a few KB of doubly compressed zeros) would keep a page busy
// for hours whatever the caller's context says. The link wraps MuPDF's
// decompression filters and its content stream opener (see the
// -Wl,--wrap flags in mupdf.go) so that every stream they return reads
// through a guard that checks the cookie of the call in progress and
// counts the bytes the filters produce against a per-call cap. The call
// in progress is found through the context's user pointer, set by
// rd_open, rd_load_page and rd_render for their duration; other users of
// MuPDF in the process (none today) see plain pass-through streams.

#define RD_CALL_MAGIC 0x7264636cu

// RD_MAX_INSPECT_PIXELS bounds the image pixels the colour test may read
// per page; see rd_fill_image.
#define RD_MAX_INSPECT_PIXELS ((int64_t)64 << 20)

typedef struct {
	unsigned magic;
	fz_cookie *cookie;  // may be NULL
	int64_t decoded;    // bytes produced by decompression filters so far
	int64_t maxdecoded; // 0: no cap
	// While rd_load_page builds a display list: the colour flag of the
	// test device, the list device behind it and how many more image
	// pixels the test device may inspect (see rd_fill_image).
	int *color;
	fz_device *list_dev;
	int64_t inspect_left;
	// The boxes of invisible text (render mode 3: rd_ignore_text) seen
	// while the display lists were built.
	rd_rect *hidden;
	int nhidden, caphidden;
} rd_call;

static rd_call *rd_current(fz_context *ctx)
{
	rd_call *c = fz_user_context(ctx);
	return c && c->magic == RD_CALL_MAGIC ? c : NULL;
}

static void rd_begin(fz_context *ctx, rd_call *c, rd_doc *d, fz_cookie *cookie)
{
	*c = (rd_call){RD_CALL_MAGIC, cookie, 0, d->maxdecoded, NULL, NULL, RD_MAX_INSPECT_PIXELS};
	fz_set_user_context(ctx, c);
}

static void rd_end(fz_context *ctx) { fz_set_user_context(ctx, NULL); }

typedef struct {
	fz_stream *chain;
	int count; // counts towards rd_call.decoded (decompression filters)
} rd_guard_state;

static int rd_guard_next(fz_context *ctx, fz_stream *stm, size_t max)
{
	rd_guard_state *g = stm->state;
	rd_call *c = rd_current(ctx);
	if (c && c->cookie && c->cookie->abort)
		fz_throw(ctx, FZ_ERROR_ABORT, "aborted while decoding a stream");
	size_t n = fz_available(ctx, g->chain, max);
	if (n == 0)
		return EOF;
	if (c && g->count) {
		c->decoded += n;
		if (c->maxdecoded > 0 && c->decoded > c->maxdecoded)
			fz_throw(ctx, FZ_ERROR_LIMIT, "streams decode to more than %lld bytes (decompression bomb?)",
				(long long)c->maxdecoded);
	}
	stm->rp = g->chain->rp;
	stm->wp = g->chain->rp + n;
	g->chain->rp += n;
	stm->pos += n;
	return *stm->rp++;
}

static void rd_guard_drop(fz_context *ctx, void *state)
{
	rd_guard_state *g = state;
	fz_drop_stream(ctx, g->chain);
	fz_free(ctx, g);
}

// rd_guard wraps chain (taking its reference) in a guard stream.
static fz_stream *rd_guard(fz_context *ctx, fz_stream *chain, int count)
{
	rd_guard_state *g = NULL;
	fz_try(ctx)
		g = fz_malloc_struct(ctx, rd_guard_state);
	fz_catch(ctx) {
		fz_drop_stream(ctx, chain);
		fz_rethrow(ctx);
	}
	g->chain = chain;
	g->count = count;
	// fz_new_stream calls rd_guard_drop on failure. Without a seek
	// function fz_seek skips forward by reading, as it does for the
	// filters themselves.
	return fz_new_stream(ctx, g, rd_guard_next, rd_guard_drop);
}

// The wrapped functions: __real_X is MuPDF's X; the linker sends every
// call of X in MuPDF's own code to __wrap_X.
fz_stream *__real_fz_open_flated(fz_context *ctx, fz_stream *chain, int window_bits);
fz_stream *__real_fz_open_lzwd(fz_context *ctx, fz_stream *chain, int early_change, int min_bits, int reverse_bits, int old_tiff);
fz_stream *__real_fz_open_rld(fz_context *ctx, fz_stream *chain);
fz_stream *__real_fz_open_faxd(fz_context *ctx, fz_stream *chain, int k, int end_of_line, int encoded_byte_align,
	int columns, int rows, int end_of_block, int black_is_1);
fz_stream *__real_fz_open_dctd(fz_context *ctx, fz_stream *chain, int color_transform, int invert_cmyk, int l2factor, fz_stream *jpegtables);
fz_stream *__real_pdf_open_contents_stream(fz_context *ctx, pdf_document *doc, pdf_obj *obj);

// MuPDF calls hypotf, which glibc 2.35 gave a new symbol version (hypot
// too): a binary linked against it would need glibc 2.35 for that one
// function, and so not run on RHEL 9 (glibc 2.34). In double precision
// the squares of floats cannot overflow or lose the float result's
// precision, so the plain formula is exact enough and needs no libm.
float __wrap_hypotf(float x, float y)
{
	double dx = x, dy = y;
	return (float)__builtin_sqrt(dx * dx + dy * dy);
}

fz_stream *__wrap_fz_open_flated(fz_context *ctx, fz_stream *chain, int window_bits)
{
	return rd_guard(ctx, __real_fz_open_flated(ctx, chain, window_bits), 1);
}

fz_stream *__wrap_fz_open_lzwd(fz_context *ctx, fz_stream *chain, int early_change, int min_bits, int reverse_bits, int old_tiff)
{
	return rd_guard(ctx, __real_fz_open_lzwd(ctx, chain, early_change, min_bits, reverse_bits, old_tiff), 1);
}

fz_stream *__wrap_fz_open_rld(fz_context *ctx, fz_stream *chain)
{
	return rd_guard(ctx, __real_fz_open_rld(ctx, chain), 1);
}

fz_stream *__wrap_fz_open_faxd(fz_context *ctx, fz_stream *chain, int k, int end_of_line, int encoded_byte_align,
	int columns, int rows, int end_of_block, int black_is_1)
{
	return rd_guard(ctx, __real_fz_open_faxd(ctx, chain, k, end_of_line, encoded_byte_align,
		columns, rows, end_of_block, black_is_1), 1);
}

fz_stream *__wrap_fz_open_dctd(fz_context *ctx, fz_stream *chain, int color_transform, int invert_cmyk, int l2factor, fz_stream *jpegtables)
{
	return rd_guard(ctx, __real_fz_open_dctd(ctx, chain, color_transform, invert_cmyk, l2factor, jpegtables), 1);
}

fz_stream *__wrap_pdf_open_contents_stream(fz_context *ctx, pdf_document *doc, pdf_obj *obj)
{
	// Content streams are guarded for the cookie only: their filters
	// already count.
	return rd_guard(ctx, __real_pdf_open_contents_stream(ctx, doc, obj), 0);
}

// rd_fail records the caught exception's message in err and classifies
// it; other is the code for errors that are neither aborts nor memory.
// Must be called inside fz_catch.
static int rd_fail(fz_context *ctx, char *err, int other)
{
	int code = fz_caught(ctx);
	snprintf(err, RD_ERRLEN, "%s", fz_caught_message(ctx));
	fz_report_error(ctx);
	if (code == FZ_ERROR_ABORT)
		return RD_ABORTED;
	if (code == FZ_ERROR_SYSTEM && strstr(err, "alloc"))
		return RD_NOMEM;
	return other;
}

// rd_open opens a PDF from memory (data, len: copied) or, when path is
// set, from that file through a file stream, so a large document is never
// held in memory whole.
int rd_open(const unsigned char *data, size_t len, const char *path, size_t store, size_t maxmem,
	int64_t maxdecoded, rd_doc **out, int *npages, char *err)
{
	*out = NULL;
	rd_doc *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, RD_ERRLEN, "out of memory");
		return RD_NOMEM;
	}
	for (int i = 0; i < FZ_LOCK_MAX; i++)
		pthread_mutex_init(&d->locks[i], NULL);
	pthread_mutex_init(&d->pool_mu, NULL);
	d->maxmem = maxmem;
	d->maxdecoded = maxdecoded;
	atomic_init(&d->used, 0);
	if (!path) {
		d->data = malloc(len ? len : 1);
		if (!d->data) {
			snprintf(err, RD_ERRLEN, "out of memory copying the file");
			rd_close(d);
			return RD_NOMEM;
		}
		memcpy(d->data, data, len);
	}

	fz_alloc_context alloc = {d, rd_malloc, rd_realloc, rd_free};
	fz_locks_context locks = {d, rd_lock, rd_unlock};
	d->ctx = fz_new_context(&alloc, &locks, store);
	if (!d->ctx) {
		snprintf(err, RD_ERRLEN, "cannot create context");
		rd_close(d);
		return RD_NOMEM;
	}
	fz_context *ctx = d->ctx;
	rd_quiet(ctx);

	int code = RD_OK;
	rd_call call;
	fz_try(ctx) {
		// Only the PDF handler: bytes that are not a PDF must fail here
		// rather than open as some other format MuPDF recognises.
		fz_register_document_handler(ctx, &pdf_document_handler);
		d->tmpl = fz_clone_context(ctx);
		if (!d->tmpl)
			fz_throw(ctx, FZ_ERROR_SYSTEM, "cannot clone context: out of memory (alloc)");
		rd_quiet(d->tmpl);
		// Object and cross-reference streams decode while opening.
		rd_begin(ctx, &call, d, NULL);
		d->stm = path ? fz_open_file(ctx, path) : fz_open_memory(ctx, d->data, len);
		d->doc = fz_open_document_with_stream(ctx, "application/pdf", d->stm);
	}
	fz_catch(ctx) {
		code = rd_fail(ctx, err, RD_CORRUPT);
	}
	if (code == RD_OK) {
		fz_try(ctx) {
			if (fz_needs_password(ctx, d->doc)) {
				code = RD_ENCRYPTED;
				snprintf(err, RD_ERRLEN, "document needs a password");
			} else {
				*npages = fz_count_pages(ctx, d->doc);
				pdf_document *pdoc = pdf_document_from_fz_document(ctx, d->doc);
				if (pdoc)
					d->need_appearances = pdf_to_bool(ctx, pdf_dict_getp(ctx,
						pdf_trailer(ctx, pdoc), "Root/AcroForm/NeedAppearances"));
				if (*npages <= 0) {
					code = RD_NOPAGES;
					snprintf(err, RD_ERRLEN, "document has no pages");
				}
			}
		}
		fz_catch(ctx) {
			code = rd_fail(ctx, err, RD_CORRUPT);
		}
	}
	rd_end(ctx);
	if (code != RD_OK) {
		rd_close(d);
		return code;
	}
	*out = d;
	return RD_OK;
}

// Worker contexts.

static fz_context *rd_get_ctx(rd_doc *d)
{
	fz_context *ctx = NULL;
	pthread_mutex_lock(&d->pool_mu);
	if (d->npool > 0)
		ctx = d->pool[--d->npool];
	else {
		ctx = fz_clone_context(d->tmpl);
		if (ctx) {
			rd_quiet(ctx);
			rd_end(ctx);
		}
	}
	pthread_mutex_unlock(&d->pool_mu);
	return ctx;
}

static void rd_put_ctx(rd_doc *d, fz_context *ctx)
{
	pthread_mutex_lock(&d->pool_mu);
	if (d->npool < RD_POOL) {
		d->pool[d->npool++] = ctx;
		ctx = NULL;
	}
	pthread_mutex_unlock(&d->pool_mu);
	if (ctx)
		fz_drop_context(ctx);
}

// Text collection.

// Plain fonts. A simple font (Type1, TrueType) with no embedded program
// and no ToUnicode map draws the glyph its encoding names and MuPDF
// reports the character the same name stands for: its text layer cannot
// say other than what it draws, so the pipeline need not check it against
// the pixels. Fonts are matched to the dictionaries of the page's
// resources (and its form XObjects') by name: a name is plain when every
// dictionary using it is; a font no dictionary names is not.
#define RD_MAX_FONT_NAMES 64
#define RD_MAX_RES_VISITS 64

typedef struct {
	char plain[RD_MAX_FONT_NAMES][32];
	char lying[RD_MAX_FONT_NAMES][32];
	int nplain, nlying, visits;
} rd_fontnames;

// rd_font_plain reports whether font dictionary f is a plain font.
static int rd_font_plain(fz_context *ctx, pdf_obj *f)
{
	const char *st = pdf_to_name(ctx, pdf_dict_gets(ctx, f, "Subtype"));
	if (strcmp(st, "Type1") != 0 && strcmp(st, "TrueType") != 0 && strcmp(st, "MMType1") != 0)
		return 0;
	if (pdf_dict_gets(ctx, f, "ToUnicode"))
		return 0;
	pdf_obj *fd = pdf_dict_gets(ctx, f, "FontDescriptor");
	return !pdf_dict_gets(ctx, fd, "FontFile") && !pdf_dict_gets(ctx, fd, "FontFile2") && !pdf_dict_gets(ctx, fd, "FontFile3");
}

static void rd_add_name(char names[][32], int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return;
	if (*n < RD_MAX_FONT_NAMES) {
		snprintf(names[*n], 32, "%s", name);
		(*n)++;
	}
}

// rd_walk_fonts notes the font names of resource dictionary res and of
// its form XObjects' resources, within RD_MAX_RES_VISITS dictionaries.
static void rd_walk_fonts(fz_context *ctx, pdf_obj *res, rd_fontnames *fn, int depth)
{
	if (!pdf_is_dict(ctx, res) || depth > 4 || fn->visits++ >= RD_MAX_RES_VISITS)
		return;
	pdf_obj *fonts = pdf_dict_gets(ctx, res, "Font");
	int n = pdf_dict_len(ctx, fonts);
	for (int i = 0; i < n && i < 4 * RD_MAX_FONT_NAMES; i++) {
		pdf_obj *f = pdf_dict_get_val(ctx, fonts, i);
		if (!pdf_is_dict(ctx, f))
			continue;
		const char *name = pdf_to_name(ctx, pdf_dict_gets(ctx, f, "BaseFont"));
		if (!*name)
			continue;
		if (rd_font_plain(ctx, f))
			rd_add_name(fn->plain, &fn->nplain, name);
		else
			rd_add_name(fn->lying, &fn->nlying, name);
	}
	pdf_obj *xo = pdf_dict_gets(ctx, res, "XObject");
	n = pdf_dict_len(ctx, xo);
	for (int i = 0; i < n && fn->visits < RD_MAX_RES_VISITS; i++) {
		pdf_obj *x = pdf_dict_get_val(ctx, xo, i);
		if (pdf_is_dict(ctx, x) && strcmp(pdf_to_name(ctx, pdf_dict_gets(ctx, x, "Subtype")), "Form") == 0)
			rd_walk_fonts(ctx, pdf_dict_gets(ctx, x, "Resources"), fn, depth + 1);
	}
}

// rd_is_plain reports whether font f is plain by its name (MuPDF names a
// font that is not embedded after its BaseFont).
static int rd_is_plain(fz_context *ctx, const rd_fontnames *fn, fz_font *f)
{
	if (!fn || !f)
		return 0;
	const char *name = fz_font_name(ctx, f);
	if (!name)
		return 0;
	int plain = 0;
	for (int i = 0; i < fn->nplain; i++)
		if (strncmp(fn->plain[i], name, 31) == 0)
			plain = 1;
	for (int i = 0; i < fn->nlying; i++)
		if (strncmp(fn->lying[i], name, 31) == 0)
			return 0;
	return plain;
}

typedef struct {
	rd_char *chars;
	int nchars, capchars;
	rd_rect *images;
	int nimages, capimages;
	int line;
	const rd_fontnames *names;
} rd_text;

// rd_font_key identifies a loaded font: its address, mixed with an FNV-1a
// hash of its name so that an address reused by another font after the
// first was dropped from the store gives another key.
static uint64_t rd_font_key(fz_context *ctx, fz_font *f)
{
	if (!f)
		return 0;
	uint64_t h = 1469598103934665603ULL;
	for (const char *n = fz_font_name(ctx, f); n && *n; n++)
		h = (h ^ (unsigned char)*n) * 1099511628211ULL;
	return h ^ (uint64_t)(uintptr_t)f;
}

static void rd_add_char(fz_context *ctx, rd_text *t, int src, fz_stext_char *ch)
{
	if (t->nchars == t->capchars) {
		int n = t->capchars ? 2 * t->capchars : 256;
		rd_char *c = realloc(t->chars, n * sizeof *c);
		if (!c)
			fz_throw(ctx, FZ_ERROR_SYSTEM, "out of memory (alloc) collecting text");
		t->capchars = n;
		t->chars = c;
	}
	rd_char *o = &t->chars[t->nchars++];
	fz_quad q = ch->quad;
	o->c = ch->c;
	o->line = t->line;
	o->src = src;
	o->q[0] = q.ul.x, o->q[1] = q.ul.y, o->q[2] = q.ur.x, o->q[3] = q.ur.y;
	o->q[4] = q.ll.x, o->q[5] = q.ll.y, o->q[6] = q.lr.x, o->q[7] = q.lr.y;
	o->font = rd_font_key(ctx, ch->font);
	o->plain = rd_is_plain(ctx, t->names, ch->font);
}

static void rd_add_image(fz_context *ctx, rd_text *t, fz_rect r)
{
	if (t->nimages == t->capimages) {
		int n = t->capimages ? 2 * t->capimages : 16;
		rd_rect *c = realloc(t->images, n * sizeof *c);
		if (!c)
			fz_throw(ctx, FZ_ERROR_SYSTEM, "out of memory (alloc) collecting images");
		t->capimages = n;
		t->images = c;
	}
	t->images[t->nimages++] = (rd_rect){r.x0, r.y0, r.x1, r.y1};
}

static void rd_collect(fz_context *ctx, rd_text *t, int src, fz_stext_page *st)
{
	for (fz_stext_block *b = st->first_block; b; b = b->next) {
		if (b->type == FZ_STEXT_BLOCK_IMAGE) {
			rd_add_image(ctx, t, b->bbox);
			continue;
		}
		if (b->type != FZ_STEXT_BLOCK_TEXT)
			continue;
		for (fz_stext_line *l = b->u.t.first_line; l; l = l->next) {
			for (fz_stext_char *ch = l->first_char; ch; ch = ch->next)
				rd_add_char(ctx, t, src, ch);
			t->line++;
		}
	}
}

static void rd_run_source(fz_context *ctx, fz_page *page, int src, fz_device *dev, fz_matrix ctm, fz_cookie *cookie)
{
	switch (src) {
	case RD_SRC_CONTENTS:
		fz_run_page_contents(ctx, page, dev, ctm, cookie);
		break;
	case RD_SRC_ANNOTS:
		fz_run_page_annots(ctx, page, dev, ctm, cookie);
		break;
	case RD_SRC_WIDGETS:
		fz_run_page_widgets(ctx, page, dev, ctm, cookie);
		break;
	}
}

// Appearance synthesis. MuPDF lays out a field's whole value however
// little of it fits the widget, in time that grows with the square of
// its length (a 1 MB multi-line value takes minutes), partly while
// loading the page, and it does not look at the cookie meanwhile. So
// before a page is loaded the texts its annotations would lay out are
// cut to RD_MAX_AP_TEXT bytes (far more than any widget shows), and once
// a page's annotations hold RD_MAX_AP_TOTAL bytes of text in all the
// later ones are emptied: text a viewer could not usefully show is not
// drawn, so it never reaches the output either. Appearances are then
// synthesised one annotation at a time, checking the cookie in between.
#define RD_MAX_AP_TEXT (16 << 10)
#define RD_MAX_AP_TOTAL (1 << 20)

// Keys whose text an appearance may lay out: annotation contents and
// rich text, field values and rich values.
static const char *rd_text_keys[] = {"Contents", "RC", "V", "RV"};

static size_t rd_minz(size_t a, size_t b) { return a < b ? a : b; }

// rd_cap_text cuts the string dict[key] to at most max bytes (an even
// number, so UTF-16 text keeps whole code units), looking for field
// values through the /Parent chain as MuPDF does. It returns the length
// the text had before.
static size_t rd_cap_text(fz_context *ctx, pdf_obj *dict, const char *key, size_t max)
{
	int inherit = strcmp(key, "V") == 0 || strcmp(key, "RV") == 0;
	for (int depth = 0; dict && depth < 32; depth++) {
		pdf_obj *v = pdf_dict_gets(ctx, dict, key);
		if (v) {
			if (!pdf_is_string(ctx, v))
				return 0;
			size_t n = pdf_to_str_len(ctx, v);
			if (n > max)
				pdf_dict_puts_drop(ctx, dict, key, pdf_new_string(ctx, pdf_to_str_buf(ctx, v), max & ~(size_t)1));
			return n;
		}
		if (!inherit)
			return 0;
		dict = pdf_dict_gets(ctx, dict, "Parent");
	}
	return 0;
}

// rd_cap_annots applies the text limits to the annotations of page
// number. Damage is left for loading the page to report.
static void rd_cap_annots(fz_context *ctx, rd_doc *d, int number, fz_cookie *cookie)
{
	pdf_document *pdoc = pdf_document_from_fz_document(ctx, d->doc);
	if (!pdoc)
		return;
	fz_try(ctx) {
		pdf_obj *annots = pdf_dict_gets(ctx, pdf_lookup_page_obj(ctx, pdoc, number), "Annots");
		int n = pdf_array_len(ctx, annots);
		size_t left = RD_MAX_AP_TOTAL;
		for (int i = 0; i < n; i++) {
			if (cookie && cookie->abort)
				fz_throw(ctx, FZ_ERROR_ABORT, "page loading aborted");
			pdf_obj *a = pdf_array_get(ctx, annots, i);
			if (!pdf_is_dict(ctx, a))
				continue;
			for (size_t k = 0; k < nelem(rd_text_keys); k++) {
				size_t len = rd_cap_text(ctx, a, rd_text_keys[k], rd_minz(left, RD_MAX_AP_TEXT));
				left -= rd_minz(left, len);
			}
		}
	}
	fz_catch(ctx) {
		fz_rethrow_if(ctx, FZ_ERROR_ABORT);
		fz_rethrow_if(ctx, FZ_ERROR_SYSTEM);
		fz_report_error(ctx);
	}
}

static void rd_update_annot(fz_context *ctx, rd_doc *d, pdf_annot *a, int widget)
{
	fz_try(ctx) {
		if (widget && d->need_appearances)
			pdf_dirty_annot(ctx, a);
		pdf_update_annot(ctx, a);
	}
	fz_catch(ctx) {
		// A failure leaves the annotation's existing appearance, which
		// is still a usable page.
		fz_rethrow_if(ctx, FZ_ERROR_ABORT);
		fz_rethrow_if(ctx, FZ_ERROR_SYSTEM);
		fz_report_error(ctx);
	}
}

static void rd_update_annots(fz_context *ctx, rd_doc *d, pdf_page *pp, fz_cookie *cookie)
{
	for (pdf_annot *a = pdf_first_annot(ctx, pp); a; a = pdf_next_annot(ctx, a)) {
		if (cookie && cookie->abort)
			fz_throw(ctx, FZ_ERROR_ABORT, "page loading aborted");
		rd_update_annot(ctx, d, a, 0);
	}
	for (pdf_annot *w = pdf_first_widget(ctx, pp); w; w = pdf_next_widget(ctx, w)) {
		if (cookie && cookie->abort)
			fz_throw(ctx, FZ_ERROR_ABORT, "page loading aborted");
		rd_update_annot(ctx, d, w, 1);
	}
}

// Colour detection. MuPDF's test device reads every pixel of every
// image drawn (until one has colour) from the compressed data, without
// looking at the cookie, and for as many pixels as the image claims even
// once the data has run out: a 1 KB image claiming 100000 x 100000
// pixels, or a small one drawn ten thousand times, would hold the page
// for minutes to hours. rd_fill_image replaces the device's fill_image:
// images within the page's budget of RD_MAX_INSPECT_PIXELS go to the
// test device as before; later ones are judged by their colour space
// alone and go straight to the display list. The cookie is checked at
// every image.
typedef void (rd_fill_image_fn)(fz_context *, fz_device *, fz_image *, fz_matrix, float, fz_color_params);

static rd_fill_image_fn *rd_test_fill_image; // the test device's own, the same for all

// rd_rgb_has_colour says whether an RGB pixmap has a pixel (not fully
// transparent) whose channels differ by more than the test device's
// threshold: 0.02, 5 in 8 bits, as in its own 8-bit test.
static int rd_rgb_has_colour(const fz_pixmap *rgb)
{
	int n = rgb->n, a = rgb->alpha;
	for (int y = 0; y < rgb->h; y++) {
		const unsigned char *s = rgb->samples + (size_t)y * rgb->stride;
		for (int x = 0; x < rgb->w; x++, s += n) {
			if (a && s[3] == 0)
				continue;
			if (abs(s[0] - s[1]) > 5 || abs(s[0] - s[2]) > 5 || abs(s[1] - s[2]) > 5)
				return 1;
		}
	}
	return 0;
}

// rd_pixmap_has_colour converts pix to RGB (unless it is RGB) and tests it.
static int rd_pixmap_has_colour(fz_context *ctx, fz_pixmap *pix, fz_color_params cp)
{
	if (!pix->colorspace)
		return 0;
	if (pix->colorspace == fz_device_rgb(ctx))
		return rd_rgb_has_colour(pix);
	fz_pixmap *rgb = fz_convert_pixmap(ctx, pix, fz_device_rgb(ctx), NULL, NULL, cp, 1);
	int col = rd_rgb_has_colour(rgb);
	fz_drop_pixmap(ctx, rgb);
	return col;
}

// RD_BAND_BYTES bounds the decoded bytes rd_image_has_colour holds at once
// for an 8-bit image that has its compressed data.
#define RD_BAND_BYTES (256 << 10)

// rd_image_has_colour says whether img has colour (1) or not (0), and
// throws what decoding it throws, as the test device did. It reads what
// MuPDF's test device reads (an 8-bit image's compressed data, streamed,
// band by band; any other image's decoded pixmap) and converts whole bands
// to RGB with the pixmap converter. MuPDF's own test (test-device.c, 1.24.9
// and upstream still) is wrong for every image whose colour space is not
// DeviceRGB itself (ICCBased sRGB, CMYK, Lab, Indexed...): it calls
// cc.convert(ctx, &cc, ds, cs) with its arrays swapped (the converter takes
// source then destination), so it converts its uninitialised stack array
// ds over the pixel just read and then tests ds: the answer was stack
// garbage, so the same page came out colour in one run and gray in the
// next, both ways round (valgrind: "use of uninitialised value ... created
// by a stack allocation at fz_test_fill_compressed_8bpc_image").
static int rd_image_has_colour(fz_context *ctx, fz_image *img, fz_color_params cp)
{
	fz_pixmap *pix = NULL;
	fz_stream *stm = NULL;
	int col = 0;
	fz_var(pix);
	fz_var(stm);
	fz_var(col);
	fz_try(ctx) {
		fz_compressed_buffer *buf = fz_compressed_image_buffer(ctx, img);
		if (buf && img->bpc == 8) {
			int w = img->w, h = img->h, n = img->n;
			size_t row = (size_t)w * n;
			int rows = row ? (int)fz_clampi(RD_BAND_BYTES / row, 1, h) : 1;
			stm = fz_open_compressed_buffer(ctx, buf);
			pix = fz_new_pixmap(ctx, img->colorspace, w, rows, NULL, 0);
			for (int y = 0; y < h && !col; y += rows) {
				int k = fz_mini(rows, h - y);
				size_t got = fz_read(ctx, stm, pix->samples, row * k);
				// Data that ends early ends the test at the last whole row.
				pix->h = row ? (int)(got / row) : 0;
				if (pix->h > 0)
					col = rd_pixmap_has_colour(ctx, pix, cp);
				pix->h = rows;
				if (got < row * k)
					break;
			}
		} else {
			pix = fz_get_pixmap_from_image(ctx, img, NULL, NULL, NULL, NULL);
			col = rd_pixmap_has_colour(ctx, pix, cp);
		}
	}
	fz_always(ctx) {
		fz_drop_stream(ctx, stm);
		fz_drop_pixmap(ctx, pix);
	}
	fz_catch(ctx)
		fz_rethrow(ctx);
	return col;
}

static void rd_fill_image(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, float alpha, fz_color_params cp)
{
	rd_fill_image_fn *inspect = __atomic_load_n(&rd_test_fill_image, __ATOMIC_ACQUIRE);
	rd_call *c = rd_current(ctx);
	if (!c || !c->color || !c->list_dev) {
		inspect(ctx, dev, img, ctm, alpha, cp);
		return;
	}
	if (c->cookie && c->cookie->abort)
		fz_throw(ctx, FZ_ERROR_ABORT, "page loading aborted");
	int64_t px = (int64_t)img->w * img->h;
	if (!*c->color && px <= c->inspect_left) {
		c->inspect_left -= px;
		if (img->colorspace && !fz_colorspace_is_gray(ctx, img->colorspace)) {
			if (rd_image_has_colour(ctx, img, cp))
				*c->color = 1;
		}
		fz_fill_image(ctx, c->list_dev, img, ctm, alpha, cp);
		return;
	}
	if (img->colorspace && !fz_colorspace_is_gray(ctx, img->colorspace))
		*c->color = 1;
	fz_fill_image(ctx, c->list_dev, img, ctm, alpha, cp);
}

// Invisible text. A text layer drawn in render mode 3 shows nothing,
// whatever font it uses, so its words must not vouch for the ink under
// them (an invisible line of plain Helvetica saying "xxxx" over a name
// drawn as outlines). MuPDF hands such text to the device's ignore_text;
// rd_ignore_text notes its box for the page (rd_page.hidden) and passes
// it on, so it is still extracted as words and drawn as nothing.
typedef void (rd_ignore_text_fn)(fz_context *, fz_device *, const fz_text *, fz_matrix);

static rd_ignore_text_fn *rd_test_ignore_text; // the test device's own, the same for all

static void rd_ignore_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm)
{
	rd_call *c = rd_current(ctx);
	if (c) {
		fz_rect r = fz_bound_text(ctx, text, NULL, ctm);
		if (!fz_is_empty_rect(r)) {
			if (c->nhidden == c->caphidden) {
				int n = c->caphidden ? 2 * c->caphidden : 16;
				rd_rect *h = realloc(c->hidden, n * sizeof *h);
				if (!h)
					fz_throw(ctx, FZ_ERROR_SYSTEM, "out of memory (alloc) collecting invisible text");
				c->caphidden = n;
				c->hidden = h;
			}
			c->hidden[c->nhidden++] = (rd_rect){r.x0, r.y0, r.x1, r.y1};
		}
	}
	rd_ignore_text_fn *next = __atomic_load_n(&rd_test_ignore_text, __ATOMIC_ACQUIRE);
	if (next)
		next(ctx, dev, text, ctm);
	else if (c && c->list_dev)
		fz_ignore_text(ctx, c->list_dev, text, ctm);
}

// rd_new_test_device is fz_new_test_device with rd_fill_image and
// rd_ignore_text.
static fz_device *rd_new_test_device(fz_context *ctx, int *color, fz_device *list_dev)
{
	fz_device *dev = fz_new_test_device(ctx, color, 0.02f, FZ_TEST_OPT_IMAGES | FZ_TEST_OPT_SHADINGS, list_dev);
	__atomic_store_n(&rd_test_fill_image, dev->fill_image, __ATOMIC_RELEASE);
	dev->fill_image = rd_fill_image;
	__atomic_store_n(&rd_test_ignore_text, dev->ignore_text, __ATOMIC_RELEASE);
	dev->ignore_text = rd_ignore_text;
	return dev;
}

// rd_stext_icc set extracts text with ICC on, as before the text device's
// colours were left to the fast conversions (tests compare the two).
int rd_stext_icc = 0;

// rd_picture_page reports whether pictures cover at least half of page p
// (a scan): its images are drawn for this page alone.
static int rd_picture_page(const rd_page *p)
{
	double area = 0;
	for (int i = 0; i < p->nimages; i++) {
		rd_rect r = p->images[i];
		double x0 = r.x0 > 0 ? r.x0 : 0, y0 = r.y0 > 0 ? r.y0 : 0;
		double w = (r.x1 < p->w ? r.x1 : p->w) - x0, h = (r.y1 < p->h ? r.y1 : p->h) - y0;
		if (w > 0 && h > 0)
			area += w * h;
	}
	return area >= 0.5 * (double)p->w * (double)p->h;
}

// rd_note_images keeps the image XObjects of a picture page's resources,
// so that rd_drop_page can evict them from the document's store: MuPDF
// keeps an image (and its decoded pixels, 3.7 MB for a letter page
// scanned at 200 dpi) in the store as long as the store has room, though
// a scan's other pages draw images of their own, so 16 scans in flight
// held some 150 MB of decodes no page would draw again. Fonts, which a
// document's pages do share, stay (bench/PROFILE.md).
static void rd_note_images(fz_context *ctx, pdf_obj *res, rd_page *p)
{
	pdf_obj *xo = pdf_dict_gets(ctx, res, "XObject");
	int n = pdf_dict_len(ctx, xo);
	for (int i = 0; i < n && p->nevict < RD_MAX_EVICT; i++) {
		pdf_obj *x = pdf_dict_get_val(ctx, xo, i);
		if (pdf_is_dict(ctx, x) && strcmp(pdf_to_name(ctx, pdf_dict_gets(ctx, x, "Subtype")), "Image") == 0)
			p->evict[p->nevict++] = pdf_keep_obj(ctx, x);
	}
}

// rd_evict_images removes p's noted images from the store. Once the
// page's display lists are dropped, nothing else holds them, and the
// store reaps their decoded pixels with them; a page still loaded that
// draws one keeps it alive through its own display list.
static void rd_evict_images(fz_context *ctx, rd_page *p)
{
	for (int i = 0; i < p->nevict; i++) {
		// The image is held while it leaves the store, and dropped after:
		// pdf_remove_item lowers its count without the check that reaps
		// what only store keys (its decoded pixels) still hold, and the
		// last drop runs that check. fz_drop_image_imp is the store's drop
		// function of every image, the one pdf_load_image finds them by.
		fz_image *img = pdf_find_item(ctx, fz_drop_image_imp, p->evict[i]);
		if (img) {
			pdf_remove_item(ctx, fz_drop_image_imp, p->evict[i]);
			fz_drop_image(ctx, img);
		}
		pdf_drop_obj(ctx, p->evict[i]);
	}
	p->nevict = 0;
}

int rd_load_page(rd_doc *d, int number, fz_cookie *cookie, rd_page **out, char *err)
{
	fz_context *ctx = d->ctx;
	fz_page *page = NULL;
	fz_device *dev = NULL;
	fz_device *list_dev = NULL;
	fz_stext_page *st = NULL;
	rd_page *p = NULL;
	rd_text t = {0};
	rd_fontnames *names = NULL;
	int code = RD_OK;
	int icc_off = 0;
	fz_var(icc_off);
	fz_var(names);
	fz_var(page);
	fz_var(dev);
	fz_var(list_dev);
	fz_var(st);
	fz_var(p);
	fz_var(t);
	fz_var(code);

	*out = NULL;
	rd_call call;
	rd_begin(ctx, &call, d, cookie);
	fz_try(ctx) {
		rd_cap_annots(ctx, d, number, cookie);
		page = fz_load_page(ctx, d->doc, number);
		pdf_page *pp = pdf_page_from_fz_page(ctx, page);
		if (pp) {
			// Synthesise missing appearance streams (widgets with a value
			// but no /AP, FreeText without /AP) so filled form values are
			// drawn and extracted. With NeedAppearances the form's own
			// appearances are stale by declaration (LibreOffice writes
			// empty ones), so every widget is rebuilt, as viewers do.
			rd_update_annots(ctx, d, pp, cookie);
			names = calloc(1, sizeof *names);
			if (!names)
				fz_throw(ctx, FZ_ERROR_SYSTEM, "out of memory (alloc)");
			rd_walk_fonts(ctx, pdf_page_resources(ctx, pp), names, 0);
			t.names = names;
		}
		fz_rect b = fz_bound_page(ctx, page);
		fz_matrix ctm = fz_translate(-b.x0, -b.y0);
		fz_rect r = fz_make_rect(0, 0, b.x1 - b.x0, b.y1 - b.y0);

		p = calloc(1, sizeof *p);
		if (!p)
			fz_throw(ctx, FZ_ERROR_SYSTEM, "out of memory (alloc)");
		p->w = r.x1;
		p->h = r.y1;
		for (int src = 0; src < RD_NSRC; src++) {
			int color = 0;
			p->lists[src] = fz_new_display_list(ctx, r);
			list_dev = fz_new_list_device(ctx, p->lists[src]);
			// The test device passes everything on to the list device and
			// notes whether anything drawn has colour (images looked at
			// pixel by pixel), so gray pages render straight to one channel.
			dev = rd_new_test_device(ctx, &color, list_dev);
			call.color = &color;
			call.list_dev = list_dev;
			rd_run_source(ctx, page, src, dev, ctm, cookie);
			call.color = NULL;
			call.list_dev = NULL;
			fz_close_device(ctx, dev);
			fz_drop_device(ctx, dev);
			dev = NULL;
			fz_close_device(ctx, list_dev);
			fz_drop_device(ctx, list_dev);
			list_dev = NULL;
			if (color)
				p->color = 1;
			if (cookie && cookie->abort)
				fz_throw(ctx, FZ_ERROR_ABORT, "page loading aborted");
		}

		fz_stext_options opts = {0};
		opts.flags = FZ_STEXT_PRESERVE_IMAGES | FZ_STEXT_MEDIABOX_CLIP;
		// The text device converts every text's colour to RGB for the
		// characters' argb, which rd_collect does not read; with ICC on,
		// the first conversion of a document builds an lcms link (gray
		// to sRGB: a reversed tone curve), a fifth of a text page's
		// MuPDF time. So text is extracted with ICC off on this context
		// (the document's own, used under the document's lock; renders
		// run on clones of the template, whose flag is their own).
		icc_off = !rd_stext_icc;
		if (icc_off)
			fz_disable_icc(ctx);
		for (int src = 0; src < RD_NSRC; src++) {
			st = fz_new_stext_page_from_display_list(ctx, p->lists[src], &opts);
			rd_collect(ctx, &t, src, st);
			fz_drop_stext_page(ctx, st);
			st = NULL;
		}
		p->chars = t.chars, p->nchars = t.nchars;
		p->images = t.images, p->nimages = t.nimages;
		p->hidden = call.hidden, p->nhidden = call.nhidden;
		call.hidden = NULL;
		t.chars = NULL, t.images = NULL;
		if (pp && rd_picture_page(p)) {
			// Best effort: a resource that fails to resolve leaves its
			// image cached, never the page unread.
			fz_try(ctx)
				rd_note_images(ctx, pdf_page_resources(ctx, pp), p);
			fz_catch(ctx)
				fz_ignore_error(ctx);
		}
	}
	fz_always(ctx) {
		if (icc_off)
			fz_enable_icc(ctx);
		fz_drop_stext_page(ctx, st);
		fz_drop_device(ctx, dev);
		fz_drop_device(ctx, list_dev);
		fz_drop_page(ctx, page);
		rd_end(ctx);
	}
	fz_catch(ctx) {
		code = rd_fail(ctx, err, RD_ERR);
	}
	free(t.chars);
	free(t.images);
	free(call.hidden);
	free(names);
	if (code != RD_OK) {
		rd_drop_page(d, p);
		return code;
	}
	*out = p;
	return RD_OK;
}

void rd_free_text(rd_page *p)
{
	free(p->chars);
	free(p->images);
	free(p->hidden);
	p->chars = NULL, p->images = NULL, p->hidden = NULL;
	p->nchars = p->nimages = p->nhidden = 0;
}

int rd_render(rd_doc *d, rd_page *p, float scale, int w, int h, int stride, int gray,
	unsigned char *samples, fz_cookie *cookie, char *err)
{
	fz_context *ctx = rd_get_ctx(d);
	if (!ctx) {
		snprintf(err, RD_ERRLEN, "cannot clone context");
		return RD_NOMEM;
	}
	fz_pixmap *pix = NULL;
	fz_device *dev = NULL;
	int code = RD_OK;
	fz_var(pix);
	fz_var(dev);
	fz_var(code);
	rd_call call;
	rd_begin(ctx, &call, d, cookie);
	fz_try(ctx) {
		pix = fz_new_pixmap_with_data(ctx, gray ? fz_device_gray(ctx) : fz_device_rgb(ctx), w, h, NULL, 0, stride, samples);
		fz_clear_pixmap_with_value(ctx, pix, 255);
		dev = fz_new_draw_device(ctx, fz_identity, pix);
		fz_matrix ctm = fz_scale(scale, scale);
		for (int src = 0; src < RD_NSRC; src++)
			fz_run_display_list(ctx, p->lists[src], dev, ctm, fz_infinite_rect, cookie);
		fz_close_device(ctx, dev);
		if (cookie && cookie->abort)
			fz_throw(ctx, FZ_ERROR_ABORT, "rendering aborted");
	}
	fz_always(ctx) {
		fz_drop_device(ctx, dev);
		fz_drop_pixmap(ctx, pix);
		rd_end(ctx);
	}
	fz_catch(ctx) {
		code = rd_fail(ctx, err, RD_ERR);
	}
	rd_put_ctx(d, ctx);
	return code;
}

void rd_drop_page(rd_doc *d, rd_page *p)
{
	if (!p)
		return;
	// Dropping cannot throw. Without a worker context (cloning failed for
	// lack of memory) the template does the work, under the pool lock
	// that keeps it to one thread.
	fz_context *ctx = rd_get_ctx(d);
	if (ctx) {
		for (int src = 0; src < RD_NSRC; src++)
			fz_drop_display_list(ctx, p->lists[src]);
		rd_evict_images(ctx, p);
		rd_put_ctx(d, ctx);
	} else {
		pthread_mutex_lock(&d->pool_mu);
		for (int src = 0; src < RD_NSRC; src++)
			fz_drop_display_list(d->tmpl, p->lists[src]);
		rd_evict_images(d->tmpl, p);
		pthread_mutex_unlock(&d->pool_mu);
	}
	rd_free_text(p);
	free(p);
}

void rd_close(rd_doc *d)
{
	if (!d)
		return;
	if (d->ctx) {
		fz_drop_document(d->ctx, d->doc);
		fz_drop_stream(d->ctx, d->stm);
		for (int i = 0; i < d->npool; i++)
			fz_drop_context(d->pool[i]);
		fz_drop_context(d->tmpl);
		fz_drop_context(d->ctx);
	}
	for (int i = 0; i < FZ_LOCK_MAX; i++)
		pthread_mutex_destroy(&d->locks[i]);
	pthread_mutex_destroy(&d->pool_mu);
	free(d->data);
	free(d);
}

fz_cookie *rd_new_cookie(void) { return calloc(1, sizeof(fz_cookie)); }

void rd_abort_cookie(fz_cookie *c) { __atomic_store_n(&c->abort, 1, __ATOMIC_SEQ_CST); }
