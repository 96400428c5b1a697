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
int pdf_update_page(fz_context *ctx, pdf_page *page);
pdf_annot *pdf_first_widget(fz_context *ctx, pdf_page *page);
pdf_annot *pdf_next_widget(fz_context *ctx, pdf_annot *prev);
void pdf_dirty_annot(fz_context *ctx, pdf_annot *annot);
pdf_obj *pdf_trailer(fz_context *ctx, pdf_document *doc);
pdf_obj *pdf_dict_getp(fz_context *ctx, pdf_obj *dict, const char *path);
int pdf_to_bool(fz_context *ctx, pdf_obj *obj);
extern fz_document_handler pdf_document_handler;

#define RD_POOL 16

struct rd_doc {
	fz_context *ctx;  // base context: document operations only
	fz_context *tmpl; // clone source for worker contexts
	unsigned char *data; // the file, copied out of Go memory
	fz_stream *stm;
	fz_document *doc;
	pthread_mutex_t locks[FZ_LOCK_MAX];
	pthread_mutex_t pool_mu;
	fz_context *pool[RD_POOL];
	int npool;
	int need_appearances; // the AcroForm's NeedAppearances is true
	atomic_size_t used;   // bytes allocated by MuPDF for this document
	size_t maxmem;      // 0: no cap
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
	atomic_fetch_add(&d->used, size);
	return h + 1;
}

static void rd_free(void *user, void *p)
{
	rd_doc *d = user;
	if (!p)
		return;
	rd_hdr *h = (rd_hdr *)p - 1;
	atomic_fetch_sub(&d->used, h->size);
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
		atomic_fetch_add(&d->used, size - old);
	else
		atomic_fetch_sub(&d->used, old - size);
	return n + 1;
}

size_t rd_mem_used(rd_doc *d) { return atomic_load(&d->used); }

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

int rd_open(const unsigned char *data, size_t len, size_t store, size_t maxmem,
	rd_doc **out, int *npages, char *err)
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
	atomic_init(&d->used, 0);
	d->data = malloc(len ? len : 1);
	if (!d->data) {
		snprintf(err, RD_ERRLEN, "out of memory copying the file");
		rd_close(d);
		return RD_NOMEM;
	}
	memcpy(d->data, data, len);

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
	fz_try(ctx) {
		// Only the PDF handler: bytes that are not a PDF must fail here
		// rather than open as some other format MuPDF recognises.
		fz_register_document_handler(ctx, &pdf_document_handler);
		d->tmpl = fz_clone_context(ctx);
		if (!d->tmpl)
			fz_throw(ctx, FZ_ERROR_SYSTEM, "cannot clone context: out of memory (alloc)");
		rd_quiet(d->tmpl);
		d->stm = fz_open_memory(ctx, d->data, len);
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
		if (ctx)
			rd_quiet(ctx);
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

typedef struct {
	rd_char *chars;
	int nchars, capchars;
	rd_rect *images;
	int nimages, capimages;
	int line;
} rd_text;

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

int rd_load_page(rd_doc *d, int number, fz_cookie *cookie, rd_page **out, char *err)
{
	fz_context *ctx = d->ctx;
	fz_page *page = NULL;
	fz_device *dev = NULL;
	fz_device *list_dev = NULL;
	fz_stext_page *st = NULL;
	rd_page *p = NULL;
	rd_text t = {0};
	int code = RD_OK;
	fz_var(page);
	fz_var(dev);
	fz_var(list_dev);
	fz_var(st);
	fz_var(p);
	fz_var(t);
	fz_var(code);

	*out = NULL;
	fz_try(ctx) {
		page = fz_load_page(ctx, d->doc, number);
		pdf_page *pp = pdf_page_from_fz_page(ctx, page);
		if (pp) {
			// Synthesise missing appearance streams (widgets with a value
			// but no /AP, FreeText without /AP) so filled form values are
			// drawn and extracted. With NeedAppearances the form's own
			// appearances are stale by declaration (LibreOffice writes
			// empty ones), so every widget is rebuilt, as viewers do. A
			// failure here leaves the existing appearances, which is still
			// a usable page.
			fz_try(ctx) {
				if (d->need_appearances)
					for (pdf_annot *w = pdf_first_widget(ctx, pp); w; w = pdf_next_widget(ctx, w))
						pdf_dirty_annot(ctx, w);
				pdf_update_page(ctx, pp);
			}
			fz_catch(ctx) {
				fz_rethrow_if(ctx, FZ_ERROR_ABORT);
				fz_rethrow_if(ctx, FZ_ERROR_SYSTEM);
				fz_report_error(ctx);
			}
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
			dev = fz_new_test_device(ctx, &color, 0.02f, FZ_TEST_OPT_IMAGES | FZ_TEST_OPT_SHADINGS, list_dev);
			rd_run_source(ctx, page, src, dev, ctm, cookie);
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
		for (int src = 0; src < RD_NSRC; src++) {
			st = fz_new_stext_page_from_display_list(ctx, p->lists[src], &opts);
			rd_collect(ctx, &t, src, st);
			fz_drop_stext_page(ctx, st);
			st = NULL;
		}
		p->chars = t.chars, p->nchars = t.nchars;
		p->images = t.images, p->nimages = t.nimages;
		t.chars = NULL, t.images = NULL;
	}
	fz_always(ctx) {
		fz_drop_stext_page(ctx, st);
		fz_drop_device(ctx, dev);
		fz_drop_device(ctx, list_dev);
		fz_drop_page(ctx, page);
	}
	fz_catch(ctx) {
		code = rd_fail(ctx, err, RD_ERR);
	}
	free(t.chars);
	free(t.images);
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
	p->chars = NULL, p->images = NULL;
	p->nchars = p->nimages = 0;
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
		rd_put_ctx(d, ctx);
	} else {
		pthread_mutex_lock(&d->pool_mu);
		for (int src = 0; src < RD_NSRC; src++)
			fz_drop_display_list(d->tmpl, p->lists[src]);
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
