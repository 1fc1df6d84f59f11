/* Unit tests of the codefix area: the unified diff reader, fingerprints (normalisation, their
 * serialised form) and the matcher on the backport shapes issue 27 names: code moved by
 * hundreds of lines, reindented, renamed locals in the context, an unrelated change in the
 * same patch, fixes that only add lines, the same context twice, reverts, partial backports,
 * rewritten code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "codefix/fprint.h"
#include "codefix/match.h"
#include "codefix/moved.h"
#include "codefix/norm.h"
#include "codefix/patch.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

/* ---- the diff reader ---------------------------------------------------------------------- */

static const char *const mail =
	"From 1234567890abcdef Mon Sep 17 00:00:00 2001\n"
	"From: A Developer <a@example.org>\n"
	"Subject: [PATCH] foo: check the length\n"
	"\n"
	"--- is not a file header in a commit message\n"
	"---\n"
	" drivers/foo.c | 3 ++-\n"
	" 1 file changed\n"
	"\n"
	"diff --git a/drivers/foo.c b/drivers/foo.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/drivers/foo.c\n"
	"+++ b/drivers/foo.c\n"
	"@@ -10,3 +10,5 @@ static int foo_read(struct foo *f, size_t len)\n"
	" \tint ret;\n"
	"-\tret = copy(f->buf, len);\n"
	"+\tif (len > f->size)\n"
	"+\t\treturn -EINVAL;\n"
	"+\tret = copy(f->buf, len);\n"
	" \treturn ret;\n"
	"\\ No newline at end of file\n"
	"diff --git a/new.c b/new.c\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/new.c\n"
	"@@ -0,0 +1 @@\n"
	"+int x;\n"
	"-- \n"
	"2.40.0\n";

static void patch_mail(void **state)
{
	(void)state;
	struct cf_patch p;
	struct kcve_err e = {0};
	assert_int_equal(cf_patch_parse(&p, mail, strlen(mail), "mail", &e), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.f[0].path, "drivers/foo.c");
	assert_int_equal(p.f[0].n, 1);
	const struct cf_phunk *h = &p.f[0].h[0];
	assert_int_equal(h->old_start, 10);
	assert_int_equal(h->new_len, 5);
	assert_string_equal(h->func, "static int foo_read(struct foo *f, size_t len)");
	assert_int_equal(h->n, 6);
	assert_int_equal(h->l[1].type, '-');
	assert_int_equal(h->l[2].type, '+');
	assert_string_equal(p.f[1].path, "new.c");
	cf_patch_release(&p);
}

static void patch_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,2 @@\n a\n",                   /* cut short */
		"--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n+a\n+b\n",                  /* more adds */
		"--- a/../x.c\n+++ b/../x.c\n@@ -1 +1 @@\n-a\n+b\n",             /* .. */
		"--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n",       /* absolute */
		"@@ -1 +1 @@\n-a\n+b\n",                                         /* no file */
		"--- a/x.c\n+++ b/x.c\n@@ -1,99999999 +1 @@\n-a\n",              /* huge count */
		"just text\n",                                                   /* nothing */
		"--- a/x\x01y.c\n+++ b/x\x01y.c\n@@ -1 +1 @@\n-a\n+b\n",         /* control char */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct cf_patch p;
		struct kcve_err e = {0};
		assert_int_equal(cf_patch_parse(&p, bad[i], strlen(bad[i]), "bad", &e), KCVE_E_PARSE);
		assert_non_null(strstr(e.msg, "bad"));
		cf_patch_release(&p);
	}
}

/* ---- normalisation ------------------------------------------------------------------------ */

static void normalise(void **state)
{
	(void)state;
	char a[CF_NORM_MAX + 1], b[CF_NORM_MAX + 1];
	size_t na = cf_norm("\tif ( a==b )  {", 15, a);
	size_t nb = cf_norm("    if (a == b) {", 17, b);
	assert_string_equal(a, b);
	assert_string_equal(a, "if(a==b){");
	assert_int_equal(cf_hash_strict(a, na), cf_hash_strict(b, nb));
	nb = cf_norm("unsigned long x;", 16, b);
	assert_string_equal(b, "unsigned long x;");
	/* a renamed local: the loose form is the same, the strict one is not */
	na = cf_norm("len = skb->len + hdr;", 21, a);
	nb = cf_norm("size = skb->len + hdr;", 22, b);
	assert_int_equal(cf_hash_loose(a, na), cf_hash_loose(b, nb));
	assert_int_not_equal(cf_hash_strict(a, na), cf_hash_strict(b, nb));
	/* called names, members and macros are kept */
	na = cf_norm("foo(x->len);", 12, a);
	nb = cf_norm("bar(x->len);", 12, b);
	assert_int_not_equal(cf_hash_loose(a, na), cf_hash_loose(b, nb));
	na = cf_norm("x->len = 1;", 11, a);
	nb = cf_norm("x->size = 1;", 12, b);
	assert_int_not_equal(cf_hash_loose(a, na), cf_hash_loose(b, nb));
	assert_true(cf_trivial("}", 1));
	assert_true(cf_trivial("return 0;", 9));
	assert_false(cf_trivial("kfree(buf);", 11));
}

/* ---- the matcher -------------------------------------------------------------------------- */

/* A function of the "tree", in its pre-fix and post-fix forms. */
#define PRE_BODY                                                                          \
	"static int foo_read(struct foo *f, size_t len)\n"                                 \
	"{\n"                                                                              \
	"\tstruct foo_hdr *hdr = f->hdr;\n"                                                \
	"\tint ret;\n"                                                                     \
	"\n"                                                                               \
	"\tspin_lock(&f->lock);\n"                                                         \
	"\tret = foo_copy(f->buf, hdr->data, len);\n"                                      \
	"\tspin_unlock(&f->lock);\n"                                                       \
	"\tfoo_account(f, ret);\n"                                                         \
	"\treturn ret;\n"                                                                  \
	"}\n"
#define POST_BODY                                                                         \
	"static int foo_read(struct foo *f, size_t len)\n"                                 \
	"{\n"                                                                              \
	"\tstruct foo_hdr *hdr = f->hdr;\n"                                                \
	"\tint ret;\n"                                                                     \
	"\n"                                                                               \
	"\tspin_lock(&f->lock);\n"                                                         \
	"\tret = foo_copy_checked(f->buf, hdr->data, len, f->size);\n"                     \
	"\tspin_unlock(&f->lock);\n"                                                       \
	"\tfoo_account(f, ret);\n"                                                         \
	"\treturn ret;\n"                                                                  \
	"}\n"

static const char *const replace_patch =
	"--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
	"@@ -3,8 +3,8 @@ static int foo_read(struct foo *f, size_t len)\n"
	" \tstruct foo_hdr *hdr = f->hdr;\n"
	" \tint ret;\n"
	" \n"
	" \tspin_lock(&f->lock);\n"
	"-\tret = foo_copy(f->buf, hdr->data, len);\n"
	"+\tret = foo_copy_checked(f->buf, hdr->data, len, f->size);\n"
	" \tspin_unlock(&f->lock);\n"
	" \tfoo_account(f, ret);\n"
	" \treturn ret;\n";

/* An add-only fix: the check goes between the lock and the copy. */
static const char *const add_patch =
	"--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
	"@@ -3,7 +3,9 @@ static int foo_read(struct foo *f, size_t len)\n"
	" \tstruct foo_hdr *hdr = f->hdr;\n"
	" \tint ret;\n"
	" \n"
	" \tspin_lock(&f->lock);\n"
	"+\tif (len > f->size)\n"
	"+\t\tlen = f->size;\n"
	" \tret = foo_copy(f->buf, hdr->data, len);\n"
	" \tspin_unlock(&f->lock);\n"
	" \tfoo_account(f, ret);\n";

#define ADD_POST                                                                          \
	"static int foo_read(struct foo *f, size_t len)\n"                                 \
	"{\n"                                                                              \
	"\tstruct foo_hdr *hdr = f->hdr;\n"                                                \
	"\tint ret;\n"                                                                     \
	"\n"                                                                               \
	"\tspin_lock(&f->lock);\n"                                                         \
	"\tif (len > f->size)\n"                                                           \
	"\t\tlen = f->size;\n"                                                             \
	"\tret = foo_copy(f->buf, hdr->data, len);\n"                                      \
	"\tspin_unlock(&f->lock);\n"                                                       \
	"\tfoo_account(f, ret);\n"                                                         \
	"\treturn ret;\n"                                                                  \
	"}\n"

/* Filler: n distinct lines of unrelated code. */
static void filler(struct strbuf *sb, int n, const char *tag)
{
	for (int i = 0; i < n; i++)
		sb_addf(sb, "static int %s_%d = %d;\n", tag, i, i * 7);
}

/* The fingerprint set of one patch text. */
static void patch_set(const char *patch, struct cf_set *s)
{
	struct cf_patch p;
	struct kcve_err e = {0};
	if (cf_patch_parse(&p, patch, strlen(patch), "t", &e))
		fail_msg("%s", e.msg);
	cf_set_init(s);
	cf_set_add_patch(s, "CVE-2099-0001", "patch", &p);
	cf_patch_release(&p);
}

/* The fingerprint verdict of patch text in source text (one file). */
static enum cf_verdict verdict(const char *patch, const char *text, unsigned *found)
{
	struct cf_set s;
	patch_set(patch, &s);
	struct cf_src src;
	cf_src_build(&src, text, strlen(text));
	const struct cf_fp *fp = &s.v[0];
	size_t n = 0;
	for (uint32_t j = 0; j < fp->n; j++)
		n += fp->f[j].n;
	struct cf_hres *hr = xcalloc(n + 1, sizeof *hr);
	size_t at = 0;
	for (uint32_t j = 0; j < fp->n; j++)
		for (uint32_t k = 0; k < fp->f[j].n; k++)
			cf_match_hunk(&s, &fp->f[j].h[k], &src, &hr[at++]);
	struct cf_result r = {0};
	cf_result_decide(&r, hr, n);
	if (found)
		*found = r.found;
	free(hr);
	cf_src_release(&src);
	cf_set_release(&s);
	return (enum cf_verdict)r.verdict;
}

/* The reading of the first hunk of patch in text (its state, place and change span). */
static struct cf_hres first_hunk(const char *patch, const char *text)
{
	struct cf_set s;
	patch_set(patch, &s);
	struct cf_src src;
	cf_src_build(&src, text, strlen(text));
	struct cf_hres hr;
	cf_match_hunk(&s, &s.v[0].f[0].h[0], &src, &hr);
	cf_src_release(&src);
	cf_set_release(&s);
	return hr;
}

/* Where the change sits (the function level reads the functions there): the lines of the side
 * read, or the context lines around a change that is not there (an add-only fix read
 * vulnerable: ins). */
static void match_span(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	const char *texts[] = {PRE_BODY, POST_BODY, PRE_BODY, ADD_POST};
	const char *const *patches[] = {&replace_patch, &replace_patch, &add_patch, &add_patch};
	const struct {
		uint8_t state;
		uint32_t first, last;
		bool ins;
	} want[] = {{CF_H_VULN, 11, 11, false}, {CF_H_FIXED, 11, 11, false},
		    {CF_H_VULN, 10, 11, true}, {CF_H_FIXED, 11, 12, false}};
	for (size_t i = 0; i < 4; i++) {
		sb_reset(&sb);
		filler(&sb, 4, "above"); /* the function starts on line 5 */
		sb_adds(&sb, texts[i]);
		struct cf_hres hr = first_hunk(*patches[i], sb.buf);
		assert_int_equal(hr.state, want[i].state);
		assert_int_equal(hr.first, want[i].first);
		assert_int_equal(hr.last, want[i].last);
		assert_int_equal(hr.ins, want[i].ins);
	}
	/* nowhere: no span */
	struct cf_hres hr = first_hunk(replace_patch, "int unrelated(void)\n{\n\treturn 0;\n}\n");
	assert_int_equal(hr.first, 0);
	assert_int_equal(hr.last, 0);
	sb_release(&sb);
}

static void match_exact(void **state)
{
	(void)state;
	assert_int_equal(verdict(replace_patch, POST_BODY, NULL), CF_FIXED);
	assert_int_equal(verdict(replace_patch, PRE_BODY, NULL), CF_VULNERABLE);
	assert_int_equal(verdict(add_patch, ADD_POST, NULL), CF_FIXED);
	assert_int_equal(verdict(add_patch, PRE_BODY, NULL), CF_VULNERABLE);
}

static void match_moved_far(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	filler(&sb, 700, "before");
	sb_adds(&sb, POST_BODY);
	filler(&sb, 50, "after");
	assert_int_equal(verdict(replace_patch, sb.buf, NULL), CF_FIXED);
	sb_reset(&sb);
	filler(&sb, 700, "before");
	sb_adds(&sb, PRE_BODY);
	assert_int_equal(verdict(replace_patch, sb.buf, NULL), CF_VULNERABLE);
	sb_reset(&sb);
	filler(&sb, 400, "before");
	sb_adds(&sb, ADD_POST);
	assert_int_equal(verdict(add_patch, sb.buf, NULL), CF_FIXED);
	sb_release(&sb);
}

/* Replace every tab by four spaces and add spaces around '(' and ','. */
static char *reindent(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (; *s; s++) {
		if (*s == '\t')
			sb_adds(&sb, "    ");
		else if (*s == ',')
			sb_adds(&sb, " , ");
		else if (*s == '(')
			sb_adds(&sb, "( ");
		else
			sb_addc(&sb, *s);
	}
	return sb_detach(&sb);
}

static void match_reindented(void **state)
{
	(void)state;
	char *post = reindent(POST_BODY), *pre = reindent(PRE_BODY), *add = reindent(ADD_POST);
	assert_int_equal(verdict(replace_patch, post, NULL), CF_FIXED);
	assert_int_equal(verdict(replace_patch, pre, NULL), CF_VULNERABLE);
	assert_int_equal(verdict(add_patch, add, NULL), CF_FIXED);
	free(post);
	free(pre);
	free(add);
}

static char *replace_all(const char *s, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t fl = strlen(from);
	for (const char *p; (p = strstr(s, from)); s = p + fl) {
		sb_add(&sb, s, (size_t)(p - s));
		sb_adds(&sb, to);
	}
	sb_adds(&sb, s);
	return sb_detach(&sb);
}

static void match_renamed_local(void **state)
{
	(void)state;
	/* the context's local "ret" is "err" in this tree: context still matches (loosely) */
	char *post = replace_all(ADD_POST, "ret", "err");
	char *pre = replace_all(PRE_BODY, "ret", "err");
	assert_int_equal(verdict(add_patch, post, NULL), CF_FIXED);
	assert_int_equal(verdict(add_patch, pre, NULL), CF_VULNERABLE);
	/* a renamed local inside the changed line itself is not the fix: not fixed */
	char *other = replace_all(POST_BODY, "f->size", "f->cap");
	assert_int_not_equal(verdict(replace_patch, other, NULL), CF_FIXED);
	free(post);
	free(pre);
	free(other);
}

/* The fix's hunk plus an unrelated change to the same file, which this tree rewrote. */
static const char *const with_unrelated =
	"--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
	"@@ -3,8 +3,8 @@ static int foo_read(struct foo *f, size_t len)\n"
	" \tstruct foo_hdr *hdr = f->hdr;\n"
	" \tint ret;\n"
	" \n"
	" \tspin_lock(&f->lock);\n"
	"-\tret = foo_copy(f->buf, hdr->data, len);\n"
	"+\tret = foo_copy_checked(f->buf, hdr->data, len, f->size);\n"
	" \tspin_unlock(&f->lock);\n"
	" \tfoo_account(f, ret);\n"
	" \treturn ret;\n"
	"@@ -40,4 +40,4 @@ static void foo_stats(struct foo *f)\n"
	" \tstats_begin(f);\n"
	" \tstats_print(f->name);\n"
	"-\tpr_info(\"foo stats\\n\");\n"
	"+\tpr_debug(\"foo stats\\n\");\n"
	" \tstats_end(f);\n";

static void match_unrelated_change(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, POST_BODY);
	filler(&sb, 30, "mid");
	sb_adds(&sb, "static void foo_stats(struct foo *f)\n{\n\ttrace_foo_stats(f);\n}\n");
	unsigned found = 0;
	assert_int_equal(verdict(with_unrelated, sb.buf, &found), CF_FIXED);
	assert_int_equal(found, 1);
	sb_release(&sb);
}

static void match_context_twice(void **state)
{
	(void)state;
	/* the add-only fix's context appears in two functions; only foo_read got the fix */
	char *other = replace_all(PRE_BODY, "foo_read", "foo_peek");
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, other);
	filler(&sb, 20, "mid");
	sb_adds(&sb, ADD_POST);
	assert_int_equal(verdict(add_patch, sb.buf, NULL), CF_FIXED);
	/* and the other way round: foo_peek has the lines, foo_read does not */
	char *peek_fixed = replace_all(ADD_POST, "foo_read", "foo_peek");
	sb_reset(&sb);
	sb_adds(&sb, peek_fixed);
	filler(&sb, 20, "mid");
	sb_adds(&sb, PRE_BODY);
	assert_int_equal(verdict(add_patch, sb.buf, NULL), CF_VULNERABLE);
	free(other);
	free(peek_fixed);
	sb_release(&sb);
}

static void match_add_elsewhere(void **state)
{
	(void)state;
	/* the added lines are in the file, but not where the context says they go */
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "static void other(struct foo *f, size_t len)\n{\n\tif (len > f->size)\n"
		     "\t\tlen = f->size;\n}\n");
	filler(&sb, 40, "mid");
	sb_adds(&sb, PRE_BODY);
	assert_int_equal(verdict(add_patch, sb.buf, NULL), CF_VULNERABLE);
	sb_release(&sb);
}

/* ---- added lines in their place (issue 34) ------------------------------------------------ */

/* A fix that only adds three statements before a `continue` inside a loop, while the same
 * statements already stand elsewhere in the function: after the insertion point (the end of
 * the loop) or before it (a drain loop above), with or without a comment between them, near
 * or 30 lines away.  Found anywhere, they would read as the fix. */
static const char *const slot_patch =
	"--- a/drivers/ring.c\n+++ b/drivers/ring.c\n"
	"@@ -26,6 +26,9 @@ static int ring_poll(struct ring *r, int budget)\n"
	" \t\t\t\t */\n"
	" \t\t\t\t\tring_free_buf(*bufp);\n"
	" \t\t\t\t\tr->stats.hdr_errors++;\n"
	"+\t\t\t\t\t(*bufp) = NULL;\n"
	"+\t\t\t\t\tslot++;\n"
	"+\t\t\t\t\tbufp++;\n"
	" \t\t\t\t\tcontinue;\n"
	" \t\t\t\t}\n"
	" \t\t\t\tif (hdr > 0) {\n";

/* The three statements, indented by `tabs`, with a comment after the first. */
static void slot_copy(struct strbuf *sb, const char *tabs, bool comment)
{
	sb_addf(sb, "%s(*bufp) = NULL;\n", tabs);
	if (comment)
		sb_addf(sb, "%s/* on to the next slot */\n", tabs);
	sb_addf(sb, "%sslot++;\n%sbufp++;\n", tabs, tabs);
}

/* ring_poll, with the fix or without; the copy of its statements before the insertion point
 * (a drain loop above) or after it (the loop's end, followed by an "if (n > 0) {" that reads
 * like the hunk's last context line once locals are set aside); pad lines of other
 * statements between. */
static char *ring_poll(bool fixed, bool before, bool comment, int pad)
{
	struct strbuf sb = STRBUF_INIT;
	filler(&sb, 6, "ring");
	sb_adds(&sb, "static int ring_poll(struct ring *r, int budget)\n{\n"
		     "\tstruct ring_slot *slot = r->slots;\n\tvoid **bufp = r->bufs;\n"
		     "\tint i, n, hdr;\n\n");
	if (before) {
		sb_adds(&sb, "\tfor (i = 0; i < r->stale; i++) {\n\t\tring_free_buf(*bufp);\n");
		slot_copy(&sb, "\t\t", comment);
		sb_adds(&sb, "\t}\n");
		for (int i = 0; i < pad; i++)
			sb_addf(&sb, "\tr->stats.drained_%d = 0;\n", i);
	}
	sb_adds(&sb, "\tn = ring_fetch(r, budget);\n\tif (n <= 0)\n\t\treturn n;\n"
		     "\tfor (i = 0; i < n; i++) {\n"
		     "\t\tif (slot->len > r->hdr_len) {\n"
		     "\t\t\tif (r->hdr_len > 0) {\n"
		     "\t\t\t\thdr = r->check_header(slot->data, *bufp);\n"
		     "\t\t\t\tif (hdr < 0) {\n"
		     "\t\t\t\t/* A bad header: drop the buffer, the next\n"
		     "\t\t\t\t * refill replaces it.\n"
		     "\t\t\t\t */\n"
		     "\t\t\t\t\tring_free_buf(*bufp);\n"
		     "\t\t\t\t\tr->stats.hdr_errors++;\n");
	if (fixed)
		slot_copy(&sb, "\t\t\t\t\t", false);
	sb_adds(&sb, "\t\t\t\t\tcontinue;\n\t\t\t\t}\n\t\t\t\tif (hdr > 0) {\n"
		     "\t\t\t\t\tr->stats.csum_good++;\n\t\t\t\t}\n\t\t\t}\n"
		     "\t\t\tring_deliver(r, *bufp, slot->len);\n");
	for (int i = 0; !before && i < pad; i++)
		sb_addf(&sb, "\t\t\tr->stats.delivered_%d += slot->len;\n", i);
	sb_adds(&sb, "\t\t} else {\n\t\t\t/* Too short: drop the buffer.\n\t\t\t */\n"
		     "\t\t\tif (*bufp != NULL)\n\t\t\t\tring_free_buf(*bufp);\n\t\t}\n");
	if (!before)
		slot_copy(&sb, "\t\t", comment);
	sb_adds(&sb, "\t}\n\tif (n > 0) {\n\t\tr->stats.polls++;\n\t}\n\treturn n;\n}\n");
	filler(&sb, 6, "tail");
	return sb_detach(&sb);
}

static void match_add_repeated(void **state)
{
	(void)state;
	static const int pads[] = {0, 12, 30};
	int bad = 0;
	for (int v = 0; v < 12; v++) {
		bool before = v & 1, comment = v & 2;
		int pad = pads[v / 4];
		char *pre = ring_poll(false, before, comment, pad);
		char *post = ring_poll(true, before, comment, pad);
		enum cf_verdict got_pre = verdict(slot_patch, pre, NULL);
		enum cf_verdict got_post = verdict(slot_patch, post, NULL);
		if (got_pre != CF_VULNERABLE || got_post != CF_FIXED) {
			print_error("copy %s the insertion point, %s comment, %d lines apart: "
				    "before the fix %s, after it %s\n",
				    before ? "before" : "after", comment ? "with a" : "without",
				    pad, cf_verdict_name(got_pre), cf_verdict_name(got_post));
			bad++;
		}
		free(pre);
		free(post);
	}
	assert_int_equal(bad, 0);
}

/* The hunk's context stands twice, in the two branches of an #if, and one branch already
 * has the added lines: which branch the fix meant cannot be told, never "fixed". */
static void match_add_if_twin(void **state)
{
	(void)state;
	static const char *const patch =
		"--- a/drivers/ring.c\n+++ b/drivers/ring.c\n"
		"@@ -20,6 +20,9 @@ static int ring_poll(struct ring *r, int budget)\n"
		" \t\t\tif (hdr < 0) {\n"
		" \t\t\t\tring_free_buf(*bufp);\n"
		" \t\t\t\tr->stats.hdr_errors++;\n"
		"+\t\t\t\t(*bufp) = NULL;\n"
		"+\t\t\t\tslot++;\n"
		"+\t\t\t\tbufp++;\n"
		" \t\t\t\tcontinue;\n"
		" \t\t\t}\n"
		" \t\t\tring_deliver(r, *bufp, slot->len);\n";
	for (int fixed = 0; fixed < 2; fixed++) {
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, "static int ring_poll(struct ring *r, int budget)\n{\n"
			     "\tint i, n = ring_fetch(r, budget), hdr;\n"
			     "\tfor (i = 0; i < n; i++) {\n"
			     "\t\thdr = r->check_header(slot->data, *bufp);\n");
		for (int branch = 0; branch < 2; branch++) {
			sb_adds(&sb, branch ? "#else\n" : "#ifdef CONFIG_RING_FAST\n");
			sb_adds(&sb, "\t\t\tif (hdr < 0) {\n\t\t\t\tring_free_buf(*bufp);\n"
				     "\t\t\t\tr->stats.hdr_errors++;\n");
			if (branch == 0 || fixed)
				slot_copy(&sb, "\t\t\t\t", false);
			sb_adds(&sb, "\t\t\t\tcontinue;\n\t\t\t}\n"
				     "\t\t\tring_deliver(r, *bufp, slot->len);\n");
		}
		sb_adds(&sb, "#endif\n\t}\n\treturn n;\n}\n");
		enum cf_verdict got = verdict(patch, sb.buf, NULL);
		if (fixed)
			assert_int_equal(got, CF_FIXED);
		else if (got == CF_FIXED)
			fail_msg("one #if branch without the added lines read as fixed");
		sb_release(&sb);
	}
}

/* Added lines held only by trivial context ("}" and "return 0;") are not placed: the same
 * statements after another "}" in the function would read the same.  Never "fixed", before
 * the fix or after it (undecided: the patch does not say where they go). */
static void match_add_short_context(void **state)
{
	(void)state;
	static const char *const patch =
		"--- a/drivers/ring.c\n+++ b/drivers/ring.c\n"
		"@@ -30,4 +30,6 @@ static int ring_stop(struct ring *r)\n"
		" \t\t}\n"
		" \t}\n"
		"+\tring_quiesce_all(r->hw, RING_STOP_NOW);\n"
		"+\tr->state = RING_STOPPED;\n"
		" \treturn 0;\n"
		" }\n";
	for (int fixed = 0; fixed < 2; fixed++) {
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, "static int ring_stop(struct ring *r)\n{\n"
			     "\tif (r->state == RING_BUSY) {\n\t\tring_pause(r);\n"
			     "\t\tif (r->hw_locked) {\n\t\t\tring_hw_unlock(r);\n\t\t}\n");
		sb_adds(&sb, "\t\tring_quiesce_all(r->hw, RING_STOP_NOW);\n"
			     "\t\tr->state = RING_STOPPED;\n\t\treturn 0;\n\t}\n");
		sb_adds(&sb, "\tfor (int i = 0; i < r->n; i++) {\n"
			     "\t\tif (r->slot[i].busy) {\n\t\t\tring_slot_stop(r, i);\n\t\t}\n\t}\n");
		if (fixed)
			sb_adds(&sb, "\tring_quiesce_all(r->hw, RING_STOP_NOW);\n"
				     "\tr->state = RING_STOPPED;\n");
		sb_adds(&sb, "\treturn 0;\n}\n");
		assert_int_not_equal(verdict(patch, sb.buf, NULL), CF_FIXED);
		sb_release(&sb);
	}
}

/* A fix that moves a line (the unlock after the accounting) where an error branch of the same
 * function already has the new order, with the same return: the branch is not the fix. */
static void match_moved_repeated(void **state)
{
	(void)state;
	static const char *const patch =
		"--- a/d/foo.c\n+++ b/d/foo.c\n"
		"@@ -20,7 +20,7 @@ static int foo_read(struct foo *f, size_t len)\n"
		" \t\treturn ret;\n \t}\n \tret = foo_copy(f->buf, len);\n-\tfoo_unlock(f);\n"
		" \tfoo_account(f, ret);\n+\tfoo_unlock(f);\n \treturn ret;\n }\n";
	static const int pads[] = {0, 5, 25};
	for (int v = 0; v < 6; v++) {
		bool fixed = v & 1;
		struct strbuf sb = STRBUF_INIT;
		filler(&sb, 5, "pad");
		sb_adds(&sb, "static int foo_read(struct foo *f, size_t len)\n{\n\tint ret, err;\n\n"
			     "\tfoo_lock(f);\n\terr = foo_check(f, len);\n\tif (err) {\n"
			     "\t\tret = foo_copy(f->buf, len);\n\t\tfoo_account(f, ret);\n"
			     "\t\tfoo_unlock(f);\n");
		for (int i = 0; i < pads[v / 2]; i++) /* the new order that far from the fix */
			sb_addf(&sb, "\t\tfoo_pad_%d(f);\n", i);
		sb_adds(&sb, "\t\treturn ret;\n\t}\n\tret = foo_copy(f->buf, len);\n");
		sb_adds(&sb, fixed ? "\tfoo_account(f, ret);\n\tfoo_unlock(f);\n"
				   : "\tfoo_unlock(f);\n\tfoo_account(f, ret);\n");
		sb_adds(&sb, "\treturn ret;\n}\n");
		assert_int_equal(verdict(patch, sb.buf, NULL), fixed ? CF_FIXED : CF_VULNERABLE);
		sb_release(&sb);
	}
}

/* A fix that adds kfree() to foo_close() between lines too common to place it ("}",
 * "mutex_unlock(&priv->lock);", "return 0;"), in a file whose foo_release() above already
 * closes the same way with the kfree(): look-alike functions between the two (2 or 3, whose
 * places chained into one candidate whose window left foo_close out; or 15 and more, which
 * make the unlock too common to vote, so only the kfree placed the hunk) made foo_release read
 * as the fix.  Never "fixed" while foo_close lacks it. */
static char *lookalikes(bool fixed, bool release_first, int others)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const release =
		"static int foo_release(struct foo_priv *priv)\n{\n\tmutex_lock(&priv->lock);\n"
		"\twhile (priv->busy) {\n\t\tif (priv->y) {\n\t\t\tfoo_hw_reset(priv);\n\t\t}\n"
		"\t}\n\tmutex_unlock(&priv->lock);\n\tkfree(priv->buf);\n\treturn 0;\n}\n\n";
	if (release_first)
		sb_adds(&sb, release);
	for (int i = 1; i <= others; i++)
		sb_addf(&sb, "static int foo_op%d(struct foo_priv *priv)\n{\n"
			     "\tmutex_lock(&priv->lock);\n\tif (priv->state_%d) {\n\t\tif (priv->x)\n"
			     "\t\t\tfoo_do_%d(priv);\n\t}\n\tmutex_unlock(&priv->lock);\n\treturn 0;\n"
			     "}\n\n", i, i, i);
	if (!release_first)
		sb_adds(&sb, release);
	sb_adds(&sb, "static int foo_close(struct foo_priv *priv)\n{\n\tmutex_lock(&priv->lock);\n"
		     "\tfor (int i = 0; i < priv->n; i++) {\n\t\tif (priv->ring[i]) {\n"
		     "\t\t\tfoo_ring_stop(priv, i);\n\t\t}\n\t}\n\tmutex_unlock(&priv->lock);\n");
	if (fixed)
		sb_adds(&sb, "\tkfree(priv->buf);\n");
	sb_adds(&sb, "\treturn 0;\n}\n");
	return sb_detach(&sb);
}

static void match_add_lookalike(void **state)
{
	(void)state;
	static const char *const patch =
		"--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
		"@@ -200,6 +200,7 @@ static int foo_close(struct foo_priv *priv)\n"
		" \t\t}\n \t}\n \tmutex_unlock(&priv->lock);\n+\tkfree(priv->buf);\n"
		" \treturn 0;\n }\n \n";
	static const struct {
		bool release_first;
		int others;
	} shapes[] = {{false, 0}, {false, 2}, {false, 3}, {false, 20},
		      {true, 0}, {true, 4}, {true, 15}, {true, 20}, {true, 40}};
	int bad = 0;
	for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
		char *text = lookalikes(false, shapes[k].release_first, shapes[k].others);
		if (verdict(patch, text, NULL) == CF_FIXED) {
			print_error("foo_release %s %d look-alikes: foo_close without the fix read "
				    "fixed\n", shapes[k].release_first ? "before" : "after",
				    shapes[k].others);
			bad++;
		}
		free(text);
	}
	assert_int_equal(bad, 0);
	/* where the context places the hunk, the fix still reads fixed */
	char *text = lookalikes(true, true, 4);
	assert_int_equal(verdict(patch, text, NULL), CF_FIXED);
	free(text);
}

/* foo_reset_v1() at the top of the file has the fix's line between the same ten context lines
 * as foo_reset() at the bottom, which lacks it; between them, 10 or 14 copies of each context
 * line alone (140 places of one vote each).  The places were cut at 96 in file order before
 * the votes ranked them, so foo_reset's place (11 votes) was never read and foo_reset_v1's
 * decided: "fixed". */
static char *scattered(bool fixed, int decoys)
{
	struct strbuf sb = STRBUF_INIT;
	for (int f = 0; f < 2; f++) {
		if (f == 1) /* the scattered copies, each in its own function */
			for (int r = 0, n = 0; r < decoys; r++)
				for (int c = 0; c < 10; c++, n++) {
					sb_addf(&sb, "static void foo_decoy_%d(struct foo_priv *priv)\n{\n"
						     "\tfoo_reg_%c(priv, FOO_%s_%d);\n", n,
						c < 5 ? 'a' : 'b', c < 5 ? "CTRL" : "STAT", c % 5);
					for (int k = 0; k < 12; k++)
						sb_addf(&sb, "\tfoo_pad_%d_%d();\n", n, k);
					sb_adds(&sb, "}\n\n");
				}
		sb_addf(&sb, "static void %s(struct foo_priv *priv)\n{\n",
			f ? "foo_reset" : "foo_reset_v1");
		for (int c = 0; c < 5; c++)
			sb_addf(&sb, "\tfoo_reg_a(priv, FOO_CTRL_%d);\n", c);
		if (f == 0 || fixed)
			sb_adds(&sb, "\tfoo_clear_pending(priv);\n");
		for (int c = 0; c < 5; c++)
			sb_addf(&sb, "\tfoo_reg_b(priv, FOO_STAT_%d);\n", c);
		sb_adds(&sb, "}\n\n");
	}
	return sb_detach(&sb);
}

static void match_many_places(void **state)
{
	(void)state;
	struct strbuf patch = STRBUF_INIT;
	sb_adds(&patch, "--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
			"@@ -500,10 +500,11 @@ static void foo_reset(struct foo_priv *priv)\n");
	for (int c = 0; c < 5; c++)
		sb_addf(&patch, " \tfoo_reg_a(priv, FOO_CTRL_%d);\n", c);
	sb_adds(&patch, "+\tfoo_clear_pending(priv);\n");
	for (int c = 0; c < 5; c++)
		sb_addf(&patch, " \tfoo_reg_b(priv, FOO_STAT_%d);\n", c);
	static const int decoys[] = {10, 14};
	for (size_t k = 0; k < 2; k++) {
		char *pre = scattered(false, decoys[k]), *post = scattered(true, decoys[k]);
		assert_int_not_equal(verdict(patch.buf, pre, NULL), CF_FIXED);
		assert_int_equal(verdict(patch.buf, post, NULL), CF_FIXED);
		free(pre);
		free(post);
	}
	sb_release(&patch);
}

/* foo_reset_v1() has the fix's line between the hunk's exact context; foo_reset(), the function
 * the hunk names, lacks it and has half its context rewritten since (foo_reg_a -> foo_write_ctrl
 * on 2 or 3 lines each side): its place matches less than half as well, so the look-alike's
 * "fixed" was taken.  A place in the named function that reads otherwise leaves it undecided. */
static void match_lookalike_drifted(void **state)
{
	(void)state;
	struct strbuf patch = STRBUF_INIT;
	sb_adds(&patch, "--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
			"@@ -500,8 +500,9 @@ static void foo_reset(struct foo_priv *priv)\n");
	for (int c = 0; c < 4; c++)
		sb_addf(&patch, " \tfoo_reg_a(priv, FOO_CTRL_%d);\n", c);
	sb_adds(&patch, "+\tfoo_clear_pending(priv);\n");
	for (int c = 0; c < 4; c++)
		sb_addf(&patch, " \tfoo_reg_b(priv, FOO_STAT_%d);\n", c);
	for (int drift = 2; drift <= 3; drift++) {
		struct strbuf sb = STRBUF_INIT;
		for (int f = 0; f < 2; f++) {
			sb_addf(&sb, "static void %s(struct foo_priv *priv)\n{\n",
				f ? "foo_reset" : "foo_reset_v1");
			int d = f ? drift : 0;
			for (int c = 0; c < 4; c++)
				sb_addf(&sb, "\t%s(priv, FOO_CTRL_%d);\n",
					c < d ? "foo_write_ctrl" : "foo_reg_a", c);
			if (f == 0)
				sb_adds(&sb, "\tfoo_clear_pending(priv);\n");
			for (int c = 0; c < 4; c++)
				sb_addf(&sb, "\t%s(priv, FOO_STAT_%d);\n",
					c < d ? "foo_write_stat" : "foo_reg_b", c);
			sb_adds(&sb, "}\n\n");
			for (int k = 0; f == 0 && k < 40; k++)
				sb_addf(&sb, "static int pad_%d;\n", k);
		}
		if (verdict(patch.buf, sb.buf, NULL) == CF_FIXED)
			fail_msg("drift %d: foo_reset without the fix read fixed", drift);
		sb_release(&sb);
	}
	sb_release(&patch);
}

/* The function the hunk names, foo_reset(), has had every line of the hunk's context rewritten
 * since (foo_reg_a -> foo_write_ctrl, foo_reg_b -> foo_write_stat) and lacks the fix, so no
 * line of the hunk points into it; foo_reset_v1(), a look-alike elsewhere in the file, has the
 * exact context and the fix's lines.  The look-alike's place was the only one read: "fixed".
 * Shapes: the look-alike before or after it; foo_reset present (rewritten) or renamed as well
 * (foo_hw_reset, the name the header gives absent); a fix that only adds and one that also
 * replaces a line (rewritten in foo_reset too).  And the shapes that stay fixed: the fix in
 * foo_reset itself beside the look-alike, and the code moved into a helper that foo_reset
 * calls (foo_reset_regs) or that calls foo_reset, with the fix there.  The look-alike shapes
 * must read undecided. */
enum lk_named { LK_REWRITTEN, LK_RENAMED, LK_FIXED_TOO, LK_HELPER, LK_HELPER_CALLER };

static void lk_body(struct strbuf *sb, const char *name, bool rewritten, bool fix, bool replace,
		    const char *call)
{
	sb_addf(sb, "static void %s(struct foo_priv *priv)\n{\n", name);
	if (call)
		sb_addf(sb, "\tfoo_lock(priv);\n\t%s(priv);\n\tfoo_unlock(priv);\n", call);
	for (int c = 0; c < 4; c++)
		sb_addf(sb, "\t%s(priv, FOO_CTRL_%d);\n", rewritten ? "foo_write_ctrl" : "foo_reg_a",
			c);
	if (replace)
		sb_adds(sb, rewritten ? "\tfoo_hw_flush(priv->hw);\n"
			    : fix ? "\tfoo_flush(priv, FOO_FLUSH_ALL);\n" : "\tfoo_flush(priv, 0);\n");
	if (fix)
		sb_adds(sb, "\tfoo_clear_pending(priv);\n");
	for (int c = 0; c < 4; c++)
		sb_addf(sb, "\t%s(priv, FOO_STAT_%d);\n", rewritten ? "foo_write_stat" : "foo_reg_b",
			c);
	sb_adds(sb, "}\n\n");
	for (int k = 0; k < 40; k++)
		sb_addf(sb, "static int %s_pad_%d;\n", name, k);
}

static char *lk_file(enum lk_named named, bool lookalike_first, bool replace)
{
	struct strbuf sb = STRBUF_INIT;
	filler(&sb, 5, "top");
	for (int part = 0; part < 2; part++) {
		if (part == (lookalike_first ? 0 : 1)) {
			lk_body(&sb, "foo_reset_v1", false, true, replace, NULL);
			continue;
		}
		switch (named) {
		case LK_REWRITTEN:
			lk_body(&sb, "foo_reset", true, false, replace, NULL);
			break;
		case LK_RENAMED:
			lk_body(&sb, "foo_hw_reset", true, false, replace, NULL);
			break;
		case LK_FIXED_TOO:
			lk_body(&sb, "foo_reset", false, true, replace, NULL);
			break;
		case LK_HELPER:
			lk_body(&sb, "foo_reset_regs", false, true, replace, NULL);
			lk_body(&sb, "foo_reset", true, false, false, "foo_reset_regs");
			break;
		case LK_HELPER_CALLER:
			lk_body(&sb, "foo_reset", true, false, false, NULL);
			lk_body(&sb, "foo_reset_all", false, true, replace, "foo_reset");
			break;
		}
	}
	return sb_detach(&sb);
}

static void match_lookalike_rewritten(void **state)
{
	(void)state;
	static const char *const names[] = {"rewritten", "renamed", "fixed too", "in a helper",
					    "in its caller"};
	int bad = 0;
	for (int replace = 0; replace < 2; replace++) {
		struct strbuf patch = STRBUF_INIT;
		sb_adds(&patch, "--- a/drivers/foo.c\n+++ b/drivers/foo.c\n");
		sb_addf(&patch, "@@ -500,%d +500,%d @@ static void foo_reset(struct foo_priv *priv)\n",
			replace ? 9 : 8, replace ? 10 : 9);
		for (int c = 0; c < 4; c++)
			sb_addf(&patch, " \tfoo_reg_a(priv, FOO_CTRL_%d);\n", c);
		if (replace)
			sb_adds(&patch, "-\tfoo_flush(priv, 0);\n+\tfoo_flush(priv, FOO_FLUSH_ALL);\n");
		sb_adds(&patch, "+\tfoo_clear_pending(priv);\n");
		for (int c = 0; c < 4; c++)
			sb_addf(&patch, " \tfoo_reg_b(priv, FOO_STAT_%d);\n", c);
		for (int named = LK_REWRITTEN; named <= LK_HELPER_CALLER; named++)
			for (int first = 0; first < 2; first++) {
				char *text = lk_file((enum lk_named)named, first, replace);
				enum cf_verdict v = verdict(patch.buf, text, NULL);
				enum cf_verdict want = named >= LK_FIXED_TOO ? CF_FIXED : CF_UNDECIDED;
				if (v != want) {
					print_error("%s, foo_reset %s, look-alike %s: %s\n",
						    replace ? "replace" : "add only", names[named],
						    first ? "before" : "after", cf_verdict_name(v));
					bad++;
				}
				free(text);
			}
		sb_release(&patch);
	}
	assert_int_equal(bad, 0);
}

/* A hunk that begins at a function's definition line is named after the function above it
 * (diff's header rule): its place is in another function than the one the header names, yet
 * the header meant it -- also where a function now stands between the two (another fix put it
 * there), so the line a header would name for the place is not the header's. */
static void match_header_above(void **state)
{
	(void)state;
	static const char *const patch =
		"--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
		"@@ -40,5 +40,6 @@ static void foo_prev(struct foo_priv *priv)\n"
		" static void foo_next(struct foo_priv *priv)\n {\n"
		" \tfoo_reg_a(priv, FOO_CTRL_0);\n+\tfoo_clear_pending(priv);\n"
		" \tfoo_reg_a(priv, FOO_CTRL_1);\n \tfoo_reg_a(priv, FOO_CTRL_2);\n";
	for (int between = 0; between < 2; between++)
		for (int fixed = 0; fixed < 2; fixed++) {
			struct strbuf sb = STRBUF_INIT;
			filler(&sb, 5, "top");
			sb_adds(&sb, "static void foo_prev(struct foo_priv *priv)\n{\n"
				     "\tfoo_stop(priv);\n}\n\n");
			if (between)
				sb_adds(&sb, "static void foo_between(struct foo_priv *priv)\n{\n"
					     "\tfoo_pause(priv);\n}\n\n");
			sb_adds(&sb, "static void foo_next(struct foo_priv *priv)\n{\n"
				     "\tfoo_reg_a(priv, FOO_CTRL_0);\n");
			if (fixed)
				sb_adds(&sb, "\tfoo_clear_pending(priv);\n");
			sb_adds(&sb, "\tfoo_reg_a(priv, FOO_CTRL_1);\n\tfoo_reg_a(priv, FOO_CTRL_2);\n}\n");
			assert_int_equal(verdict(patch, sb.buf, NULL),
					 fixed ? CF_FIXED : CF_VULNERABLE);
			sb_release(&sb);
		}
}

static void match_revert(void **state)
{
	(void)state;
	/* a tree that had the fix and reverted it carries the pre-fix code again */
	struct strbuf sb = STRBUF_INIT;
	filler(&sb, 10, "x");
	sb_adds(&sb, PRE_BODY);
	assert_int_equal(verdict(replace_patch, sb.buf, NULL), CF_VULNERABLE);
	assert_int_equal(verdict(add_patch, sb.buf, NULL), CF_VULNERABLE);
	sb_release(&sb);
}

static void match_partial(void **state)
{
	(void)state;
	/* two hunks of one fix, only the first backported */
	static const char *const two =
		"--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
		"@@ -3,8 +3,8 @@ static int foo_read(struct foo *f, size_t len)\n"
		" \tstruct foo_hdr *hdr = f->hdr;\n"
		" \tint ret;\n"
		" \n"
		" \tspin_lock(&f->lock);\n"
		"-\tret = foo_copy(f->buf, hdr->data, len);\n"
		"+\tret = foo_copy_checked(f->buf, hdr->data, len, f->size);\n"
		" \tspin_unlock(&f->lock);\n"
		" \tfoo_account(f, ret);\n"
		" \treturn ret;\n"
		"@@ -30,5 +30,5 @@ static int foo_write(struct foo *f)\n"
		" \tfoo_prepare(f);\n"
		" \tfoo_lock_all(f);\n"
		"-\tfoo_store(f->buf, f->len);\n"
		"+\tfoo_store_checked(f->buf, f->len, f->size);\n"
		" \tfoo_unlock_all(f);\n"
		" \treturn 0;\n";
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, POST_BODY);
	filler(&sb, 15, "mid");
	sb_adds(&sb, "static int foo_write(struct foo *f)\n{\n\tfoo_prepare(f);\n\tfoo_lock_all(f);\n"
		     "\tfoo_store(f->buf, f->len);\n\tfoo_unlock_all(f);\n\treturn 0;\n}\n");
	assert_int_equal(verdict(two, sb.buf, NULL), CF_PARTIAL);
	sb_release(&sb);
}

static void match_rewritten(void **state)
{
	(void)state;
	/* the function was rewritten: neither side is there */
	static const char *const text =
		"static int foo_read(struct foo *f, size_t len)\n{\n"
		"\treturn foo_read_iter(f, len, FOO_READ_ALL);\n}\n";
	assert_int_equal(verdict(replace_patch, text, NULL), CF_UNDECIDED);
	assert_int_equal(verdict(add_patch, text, NULL), CF_UNDECIDED);
	assert_int_equal(verdict(add_patch, "", NULL), CF_UNDECIDED);
}

/* ---- serialised form ---------------------------------------------------------------------- */

static void fprint_roundtrip(void **state)
{
	(void)state;
	struct cf_patch p;
	struct kcve_err e = {0};
	assert_int_equal(cf_patch_parse(&p, with_unrelated, strlen(with_unrelated), "t", &e), 0);
	struct cf_set s;
	cf_set_init(&s);
	assert_int_equal(cf_set_add_patch(&s, "CVE-2099-0002", "patch", &p), 2);
	assert_int_equal(cf_set_add_patch(&s, "CVE-2099-0001", "6.1", &p), 2);
	cf_patch_release(&p);
	cf_set_sort(&s);
	assert_string_equal(s.v[0].cve, "CVE-2099-0001");
	size_t nlines = s.nlines;
	struct strbuf sb = STRBUF_INIT;
	cf_set_encode(&s, &sb);
	struct cf_set d;
	assert_int_equal(cf_set_decode(&d, sb.buf, sb.len, "t", &e), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.nlines, nlines); /* the two fingerprints share their lines */
	assert_string_equal(d.v[1].label, "patch");
	assert_string_equal(d.v[1].f[0].h[1].func, "static void foo_stats(struct foo *f)");
	assert_int_equal(d.v[1].f[0].h[0].n, s.v[1].f[0].h[0].n);
	cf_set_release(&d);
	/* every truncation is a clean error */
	for (size_t cut = 0; cut < sb.len; cut++) {
		assert_int_equal(cf_set_decode(&d, sb.buf, cut, "t", &e), KCVE_E_PARSE);
		cf_set_release(&d);
	}
	/* a line index beyond the table: 1 line "x"; 1 fingerprint "A" "B", 1 file "f", 1 hunk
	 * (func "", funcs ""), 1 item: line 5, removed */
	static const unsigned char bad[] = {1, 1, 'x', 0, 1, 1, 'A', 0, 1, 'B', 0, 1, 1, 'f', 0,
					    1, 0, 0, 0, 0, 1, 5 * 4 + 1};
	assert_int_equal(cf_set_decode(&d, bad, sizeof bad, "t", &e), KCVE_E_PARSE);
	cf_set_release(&d);
	unsigned char good[sizeof bad];
	memcpy(good, bad, sizeof bad);
	good[sizeof good - 1] = 0 * 4 + 1; /* line 0: loads */
	assert_int_equal(cf_set_decode(&d, good, sizeof good, "t", &e), 0);
	assert_int_equal(d.v[0].f[0].h[0].it[0].type, CF_DEL);
	cf_set_release(&d);
	sb_release(&sb);
	cf_set_release(&s);
}

static void whitespace_only_patch(void **state)
{
	(void)state;
	static const char *const ws = "--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@\n a();\n-\tb();\n"
				      "+        b();\n c();\n";
	struct cf_patch p;
	struct kcve_err e = {0};
	assert_int_equal(cf_patch_parse(&p, ws, strlen(ws), "t", &e), 0);
	struct cf_set s;
	cf_set_init(&s);
	assert_int_equal(cf_set_add_patch(&s, "CVE-2099-0003", "patch", &p), 0);
	assert_int_equal(s.v[0].n, 0);
	cf_patch_release(&p);
	cf_set_release(&s);
}

/* A line removed in one hunk and added in another (code the fix moves) is marked once per
 * file, when the fingerprint is built and again when it is loaded. */
static void fprint_moved_marks(void **state)
{
	(void)state;
	static const char *const mv =
		"--- a/x.c\n+++ b/x.c\n"
		"@@ -1,4 +1,3 @@ int a(void)\n a_begin();\n-\tshared_unlock(x);\n a_mid();\n a_end();\n"
		"@@ -20,3 +19,5 @@ int b(void)\n b_begin();\n b_mid();\n+\tshared_unlock(x);\n"
		"+\tb_extra();\n b_end();\n";
	struct cf_set s;
	patch_set(mv, &s);
	struct strbuf sb = STRBUF_INIT;
	cf_set_encode(&s, &sb);
	struct cf_set d;
	struct kcve_err e = {0};
	assert_int_equal(cf_set_decode(&d, sb.buf, sb.len, "t", &e), 0);
	const struct cf_set *sets[] = {&s, &d};
	for (int k = 0; k < 2; k++) {
		const struct cf_file *f = &sets[k]->v[0].f[0];
		assert_int_equal(f->n, 2);
		unsigned moved = 0, changed = 0;
		for (uint32_t i = 0; i < f->n; i++)
			for (uint32_t j = 0; j < f->h[i].n; j++) {
				const struct cf_item *x = &f->h[i].it[j];
				changed += x->type != CF_CTX;
				moved += x->moved;
				if (x->moved)
					assert_string_equal(sets[k]->lines[x->line].text,
							    "shared_unlock(x);");
			}
		assert_int_equal(changed, 3);
		assert_int_equal(moved, 2); /* the removed and the added shared_unlock */
	}
	cf_set_release(&d);
	cf_set_release(&s);
	sb_release(&sb);
}

/* A hunk of 600 lines standing at 16 places reads at the places its work allows; the places
 * left unread might read otherwise, so it is unknown even where every place read shows the
 * fix. */
static void match_work_bounded(void **state)
{
	(void)state;
	struct strbuf patch = STRBUF_INIT, text = STRBUF_INIT;
	sb_adds(&patch, "--- a/w.c\n+++ b/w.c\n@@ -1,600 +1,600 @@\n");
	for (int i = 0; i < 600; i++) {
		sb_addf(&patch, "%c\tx_%d = y_%d(z);\n", i == 299 ? '-' : ' ', i, i);
		if (i == 299)
			sb_adds(&patch, "+\tq = checked(z);\n");
	}
	for (int r = 0; r < 16; r++)
		for (int i = 0; i < 600; i++)
			sb_addf(&text, i == 299 ? "\tq = checked(z);\n" : "\tx_%d = y_%d(z);\n", i, i);
	assert_int_equal(first_hunk(patch.buf, text.buf).state, CF_H_UNKNOWN);
	/* the same hunk at one place: read */
	sb_reset(&text);
	for (int i = 0; i < 600; i++)
		sb_addf(&text, i == 299 ? "\tq = checked(z);\n" : "\tx_%d = y_%d(z);\n", i, i);
	assert_int_equal(first_hunk(patch.buf, text.buf).state, CF_H_FIXED);
	sb_release(&patch);
	sb_release(&text);
}

/* Two versions of one fix: one read fixed, the other left unread when the run's time ran out.
 * The unread version might have read vulnerable (the versions would then disagree: undecided),
 * so the combined verdict is never "fixed" (match.h: unread hunks never make a fix). */
static void combine_unread_version(void **state)
{
	(void)state;
	struct cf_hres fixed = {.state = CF_H_FIXED, .line = 10, .weight = 2.0f};
	struct cf_hres unread = {.state = CF_H_UNKNOWN, .weight = 1.0f, .unread = true};
	struct cf_result r[2] = {{0}, {0}}, comb;
	cf_result_decide(&r[0], &fixed, 1);
	cf_result_decide(&r[1], &unread, 1);
	assert_int_equal(r[0].verdict, CF_FIXED);
	assert_int_equal(r[1].verdict, CF_UNDECIDED);
	for (int order = 0; order < 2; order++) {
		struct cf_result v[2] = {r[order], r[1 - order]};
		cf_combine(v, 2, &comb);
		assert_int_not_equal(comb.verdict, CF_FIXED);
	}
	/* both versions read: the one that decides gives the verdict, as before */
	cf_result_decide(&r[1], &fixed, 1);
	cf_combine(r, 2, &comb);
	assert_int_equal(comb.verdict, CF_FIXED);
}

/* ---- renamed files: the tree's files by basename ------------------------------------------- */

static void put(const char *root, const char *rel)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("int x;\n", f);
	fclose(f);
}

/* An index that misses part of the tree (a directory too deep, too many files) cannot say a
 * candidate is the only one: a second copy there would make a fix undecided, so without it a
 * copy could decide alone.  Such an index offers no candidate at all. */
static void names_incomplete(void **state)
{
	(void)state;
	char root[] = "/tmp/kcve-cfnames-XXXXXX";
	assert_non_null(mkdtemp(root));
	put(root, "drivers/a/foo.c");
	char rel[256] = "";
	for (int i = 0; i < 60; i++)
		strcat(rel, "d/");
	strcat(rel, "foo.c");
	put(root, rel); /* a second copy, 60 directories down */
	int fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	struct cf_names x = {0};
	cf_names_build(&x, fd);
	const char *out[CF_MOVED_MAX];
	assert_int_equal(cf_names_find(&x, "drivers/foo.c", out), 0);
	cf_names_release(&x);
	close(fd);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void names_index(void **state)
{
	(void)state;
	char root[] = "/tmp/kcve-cfnames-XXXXXX";
	assert_non_null(mkdtemp(root));
	put(root, "drivers/a/foo.c");
	put(root, "drivers/b/foo.c");
	put(root, "net/foo.c");
	put(root, ".git/foo.c");      /* dot directories are not entered */
	put(root, "drivers/.pc/bar.c");
	put(root, "x/bar.c");
	for (int i = 0; i < CF_MOVED_MAX + 1; i++) {
		char rel[64];
		snprintf(rel, sizeof rel, "d%d/core.c", i);
		put(root, rel);
	}
	char target[600], link[600];
	snprintf(target, sizeof target, "%s/x/bar.c", root);
	snprintf(link, sizeof link, "%s/y", root);
	assert_int_equal(symlink(target, link), 0); /* a link to a file: not indexed */
	snprintf(link, sizeof link, "%s/ldir", root);
	snprintf(target, sizeof target, "%s/drivers", root);
	assert_int_equal(symlink(target, link), 0); /* a link to a directory: not entered */
	int fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	struct cf_names x = {0};
	cf_names_build(&x, fd);
	const char *out[CF_MOVED_MAX];
	assert_int_equal(cf_names_find(&x, "drivers/foo.c", out), 3);
	assert_string_equal(out[0], "drivers/a/foo.c");
	assert_string_equal(out[1], "drivers/b/foo.c");
	assert_string_equal(out[2], "net/foo.c");
	assert_int_equal(cf_names_find(&x, "drivers/a/foo.c", out), 2); /* not itself */
	assert_int_equal(cf_names_find(&x, "old/bar.c", out), 1);
	assert_string_equal(out[0], "x/bar.c");
	assert_int_equal(cf_names_find(&x, "core.c", out), 0); /* 5 of them: too common */
	assert_int_equal(cf_names_find(&x, "drivers/none.c", out), 0);
	cf_names_release(&x);
	close(fd);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(patch_mail),
		cmocka_unit_test(patch_refused),
		cmocka_unit_test(normalise),
		cmocka_unit_test(match_exact),
		cmocka_unit_test(match_moved_far),
		cmocka_unit_test(match_reindented),
		cmocka_unit_test(match_renamed_local),
		cmocka_unit_test(match_unrelated_change),
		cmocka_unit_test(match_context_twice),
		cmocka_unit_test(match_add_elsewhere),
		cmocka_unit_test(match_add_repeated),
		cmocka_unit_test(match_add_if_twin),
		cmocka_unit_test(match_add_short_context),
		cmocka_unit_test(match_add_lookalike),
		cmocka_unit_test(match_many_places),
		cmocka_unit_test(match_lookalike_drifted),
		cmocka_unit_test(match_lookalike_rewritten),
		cmocka_unit_test(match_header_above),
		cmocka_unit_test(match_moved_repeated),
		cmocka_unit_test(match_span),
		cmocka_unit_test(match_revert),
		cmocka_unit_test(match_partial),
		cmocka_unit_test(match_rewritten),
		cmocka_unit_test(fprint_roundtrip),
		cmocka_unit_test(whitespace_only_patch),
		cmocka_unit_test(fprint_moved_marks),
		cmocka_unit_test(match_work_bounded),
		cmocka_unit_test(combine_unread_version),
		cmocka_unit_test(names_index),
		cmocka_unit_test(names_incomplete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
