/* Fix fingerprints: a CVE's fix as code, to find it again in a tree without history.
 *
 * Per CVE, one fingerprint per version of its fix (the patch given, the mainline commit, each
 * stable branch's backport); per changed file, per hunk: the hunk's lines in order, each a
 * context, removed or added line, and the function the hunk header names.  Lines are stored
 * in their normalised strict form (codefix/norm.h) in one table shared by every fingerprint,
 * so a line common to many fixes is stored once.  Blank lines are dropped, and a line that a
 * hunk removes and adds again (a reindent) becomes context.
 *
 * Serialised form (inside the compact database, see check/records/recset.h), LEB128 integers and
 * strings as LEB128 length + bytes + NUL:
 *   uleb nlines, str line...;
 *   uleb nfp, (str cve, str label, uleb nfiles, (str path, uleb nhunks, (str func, str funcs,
 *   uleb n, uleb item...)...)...)...
 * where item = line index * 4 + type (0 context, 1 removed, 2 added). */
#ifndef KCVE_CODEFIX_FPRINT_H
#define KCVE_CODEFIX_FPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "codefix/patch.h"
#include "core/error.h"
#include "core/strbuf.h"

enum cf_type { CF_CTX = 0, CF_DEL = 1, CF_ADD = 2 };

#define CF_HUNK_MAX_ITEMS 600 /* a longer hunk keeps its first items (a new file, mostly) */

struct cf_item {
	uint32_t line; /* index into the line table */
	uint8_t type;  /* enum cf_type */
	uint8_t moved; /* a changed line that a hunk of the same file changes the other way (a
			* block of code the fix moves); derived, not stored */
};

struct cf_hunk {
	char *func;  /* the hunk header's function text ("" when none) */
	char *funcs; /* functions the hunk changes, from scans of the file before and after the fix
		      * (the text form of check/stages/funclevel.h: fl_hunk_funcs); "" when the files were
		      * not available (--patches) */
	struct cf_item *it;
	uint32_t n;
	const struct cf_phunk *src; /* the patch hunk it was built from, while that patch lives
				     * (for funcs); NULL once loaded */
};

struct cf_file {
	char *path;
	struct cf_hunk *h;
	uint32_t n;
};

struct cf_fp {
	char *cve;   /* "CVE-2025-21739" */
	char *label; /* which version of the fix: "patch", "mainline", "6.1", ... */
	struct cf_file *f;
	uint32_t n;
};

struct cf_line {
	char *text; /* strict form */
	uint64_t hs, hl; /* strict and loose hashes */
	uint8_t trivial;
};

struct cf_set {
	struct cf_line *lines;
	size_t nlines, lalloc;
	uint32_t *slot; /* dedupe table (line index + 1, 0 = empty) */
	size_t nslot;
	struct cf_fp *v;
	size_t n, alloc;
};

void cf_set_init(struct cf_set *s);
void cf_set_release(struct cf_set *s);
/* Add the fingerprint of patch p for cve (label says which version of the fix).  Files with
 * no hunk that changes code once normalised are left out; returns the hunks kept. */
size_t cf_set_add_patch(struct cf_set *s, const char *cve, const char *label,
			const struct cf_patch *p);
/* Serialise / load (bounded: a damaged input is KCVE_E_PARSE with `name` in the message). */
void cf_set_encode(const struct cf_set *s, struct strbuf *out);
int cf_set_decode(struct cf_set *s, const void *data, size_t len, const char *name,
		  struct kcve_err *err);
/* Fingerprints sorted by CVE id then label (cf_set_add_patch keeps insertion order). */
void cf_set_sort(struct cf_set *s);

#endif
