/* Finding a fix fingerprint (codefix/fprint.h) in a source tree without history.
 *
 * Per hunk, the places in the file where its lines occur are aligned with the hunk (a
 * weighted longest common subsequence over a window: added/removed lines must match in their
 * strict form, context lines in their loose form, so renamed locals and moved code still
 * match).  At the best place the hunk reads:
 *   fixed       its added lines are there in their place (and its removed lines are not);
 *   vulnerable  its removed lines are there and its added lines are not — for a fix that only
 *               adds lines: the context on both sides of the insertion is there, adjacent,
 *               and the added lines are not between;
 * An added line counts only in its place: on the lines next to the hunk's own lines around it
 * (up to a distinctive context line on one side), never because the same statement stands
 * elsewhere in the function; added lines held by trivial context only, a place whose
 * context also stands elsewhere closed up (an #if twin), or a place that only the added lines
 * point to (every context line trivial or too common to place the hunk: a look-alike function
 * that has them would be the only place read), leave a fix that only adds unknown.
 *   unknown     neither, the place is ambiguous (two places read differently and the hunk's
 *               function does not tell them apart), the file is missing, or "fixed" stands in
 *               a look-alike: a function other than the one the header names, with nothing
 *               to say the header meant it (the named function, its context rewritten since
 *               or itself renamed, has no line of the hunk to read; match.c: lookalike_place).
 * Lines too common to identify a place ("}", "return 0;") weigh a fifth of a line.  Per
 * fingerprint: fixed when no hunk reads vulnerable and the hunks reading fixed weigh at least
 * half of all; vulnerable when some hunk reads vulnerable and none reads fixed; partial when
 * both; undecided otherwise.  A wrong "fixed" hides a vulnerability, so every threshold leans
 * towards undecided. */
#ifndef KCVE_CODEFIX_MATCH_H
#define KCVE_CODEFIX_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codefix/fprint.h"
#include "core/diag.h"
#include "core/error.h"
#include "csrc/funcscan.h"

enum cf_verdict { CF_UNDECIDED = 0, CF_FIXED = 1, CF_VULNERABLE = 2, CF_PARTIAL = 3 };
enum cf_hstate { CF_H_UNKNOWN = 0, CF_H_FIXED = 1, CF_H_VULN = 2, CF_H_MISSING = 3 };
const char *cf_verdict_name(enum cf_verdict v);
const char *cf_hstate_name(enum cf_hstate s);

#define CF_SRC_MAX ((size_t)16 << 20) /* largest source file read */
/* One cf_check_tree's time for matching: the hunks not read when it is spent count as
 * unknown (never fixed), with one warning naming how many.  With a hunk's own work bounded
 * (at most 600 lines, aligned at a bounded number of places) a run stays inside 30 s whatever
 * the patches; ordinary runs take a few seconds at most. */
#define CF_MATCH_SECONDS 20

/* One source file prepared for matching: its non-blank lines, hashed and indexed. */
struct cf_src {
	size_t n;
	uint64_t *hs, *hl;   /* strict and loose hashes per non-blank line */
	uint32_t *lineno;    /* 1-based line number in the file */
	uint32_t *off;       /* byte offset of the line in the file */
	uint32_t *funcpos;   /* lines that may start a function (column 0, identifier first) */
	char **functext;     /* their strict forms */
	size_t nfunc;
	/* hash chains over the lines' strict (s) and loose (l) hashes: head[hash & mask] and
	 * next[line] hold a line index + 1, 0 ending a chain */
	uint32_t *head_s, *head_l, *next_s, *next_l;
	size_t mask;
	struct funcscan fs;  /* the file's C function boundaries, scanned on first use */
	const struct funcscan_fn **byname; /* fs.fn sorted by name (with fs) */
	bool scanned;
	const char *text;    /* the file's text (the caller keeps it while f is in use) */
	size_t len;
};
/* text must stay valid until cf_src_release (the function scan reads it when first needed). */
void cf_src_build(struct cf_src *f, const char *text, size_t len);
void cf_src_release(struct cf_src *f);

struct cf_hres {
	uint8_t state;   /* enum cf_hstate */
	uint32_t line;   /* 1-based line where the hunk was found, 0 = nowhere */
	float weight;    /* the hunk's weight (its changed lines) */
	/* where the change sits in the file, for a hunk read fixed or vulnerable (else 0): the
	 * lines of the side read (added lines of a fixed hunk, removed lines of a vulnerable one)
	 * between first and last; where a change block has none of its lines on that side (a fix
	 * that only adds lines, read vulnerable) the context lines around its place are in the
	 * span instead, and ins is set (the change lies between two lines: a span over two
	 * functions then says nothing about which one) */
	uint32_t first, last;
	bool ins;
	const char *moved; /* the file read instead of the one the fingerprint names (which the
			    * tree lacks: renamed or moved, see codefix/moved.h); NULL = that one */
	bool unread;       /* not read: the run's time was spent (cf_check_tree) */
};
/* The function a hunk header names ("static int foo_read(struct foo *" -> "foo_read"): the
 * identifier before its first '('; "" when none. */
void cf_header_name(const char *func, char *out, size_t n);
/* Read hunk h (of set s) in source file f.  Its lines' `moved` marks come from its file
 * (codefix/fprint.c): the cost is the hunk's own, whatever the number of hunks. */
void cf_match_hunk(const struct cf_set *s, const struct cf_hunk *h, const struct cf_src *f,
		   struct cf_hres *out);

struct cf_ev {
	const char *file; /* into the fingerprint set */
	uint32_t hunk;    /* 0-based hunk of that file */
	uint8_t state;    /* enum cf_hstate */
	uint32_t line;
	uint32_t first, last; /* the change's span (struct cf_hres) */
	bool ins;
	char *moved;      /* the file read instead (malloc'd; NULL = `file` itself) */
};
/* Free an evidence array (with the paths it owns). */
void cf_ev_free(struct cf_ev *ev, size_t n);

struct cf_result {
	uint8_t verdict; /* enum cf_verdict */
	uint32_t hunks, found; /* hunks in the fingerprint, hunks read fixed or vulnerable */
	const char *label;     /* the fingerprint that decided (version of the fix) */
	bool unread;           /* some hunk was not read (the run's time was spent) */
	struct cf_ev *ev;
	size_t nev;
};
/* Verdict of one fingerprint from its hunks' readings (ev/nev filled by the caller); never
 * fixed while a hunk is unread. */
void cf_result_decide(struct cf_result *r, const struct cf_hres *hr, size_t n);

/* Check every fingerprint of s against the tree at root: out[i] for s->v[i] (s sorted by
 * cf_set_sort).  Each named file is read once (regular files below root, no links, at most
 * CF_SRC_MAX bytes); an unreadable file leaves its hunks "missing".  A file the tree lacks is
 * looked for under the same basename elsewhere (renamed or moved, codefix/moved.h): at most
 * CF_MOVED_MAX candidates are read, and a fingerprint file takes the one candidate where some
 * of its hunks decide (evidence `moved`); none deciding leaves it missing, two deciding leave
 * its hunks undecided.  Matching stops after CF_MATCH_SECONDS (a warning to diag, NULL: the
 * default sink, says how many hunks were left unread). */
int cf_check_tree(const struct cf_set *s, const char *root, const struct kcve_diag *diag,
		  struct cf_result *out, struct kcve_err *err);
/* One verdict per CVE from its fingerprints out[first..first+n) (several versions of a fix):
 * the versions agree, or one decides and the others do not; disagreeing versions are
 * undecided, and so is "fixed" while a version has hunks left unread (read, it might have
 * disagreed).  Returns the index of the deciding result. */
size_t cf_combine(const struct cf_result *r, size_t n, struct cf_result *combined);
void cf_result_release(struct cf_result *r);

#endif
