/* A unified diff reader: `git format-patch` mails and `diff -u -p` output.
 *
 * Only what a fix fingerprint needs is kept: per changed file its path (the new name, without
 * the a/ b/ prefix; the old name for a deleted file) and per hunk its header position, the
 * function text after the second "@@" and its lines (' ' context, '-' removed, '+' added).
 * Everything else (mail headers, commit message, diffstat, binary patches, mode lines) is
 * skipped.  The input is hostile: its size, the number of files, hunks and lines, and every
 * count in a hunk header are bounded, paths are checked (relative, no "..", no control
 * characters), and a malformed hunk is a KCVE_E_PARSE error, never a partial file. */
#ifndef KCVE_CODEFIX_PATCH_H
#define KCVE_CODEFIX_PATCH_H

#include <stddef.h>

#include "core/error.h"

#define CF_PATCH_MAX (64u << 20) /* bytes of one patch */
#define CF_PATCH_MAX_LINES 2000000u
#define CF_PATCH_MAX_HUNKS 100000u

struct cf_pline {
	char type;        /* ' ', '-' or '+' */
	const char *text; /* into the patch's copy of the input, not NUL-terminated */
	size_t len;
};

struct cf_phunk {
	unsigned long old_start, old_len, new_start, new_len;
	char *func; /* text after the second "@@", trimmed ("" when none) */
	struct cf_pline *l;
	size_t n, alloc;
};

struct cf_pfile {
	char *path;
	struct cf_phunk *h;
	size_t n, alloc;
};

struct cf_patch {
	struct cf_pfile *f;
	size_t n, alloc;
	char *text; /* the input copied, lines point into it */
};

/* Parse len bytes of text.  0, or KCVE_E_PARSE with the reason (name in the message). */
int cf_patch_parse(struct cf_patch *p, const char *text, size_t len, const char *name,
		   struct kcve_err *err);
/* Read and parse a regular file of at most CF_PATCH_MAX bytes. */
int cf_patch_read(struct cf_patch *p, const char *path, struct kcve_err *err);
void cf_patch_release(struct cf_patch *p);

#endif
