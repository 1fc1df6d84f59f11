/* Who may dispute or modify a CVE: the maintainers of the subsystem(s) its fix touches.
 *
 * Policy (documented in docs/disputes.md):
 *  - For every file of the CVE (programFiles), the sections covering it are computed with
 *    get_maintainer.pl's rules and ordered by specificity. Sections that can never grant
 *    authority are skipped: "THE REST", orphaned sections (S: Orphan) and sections without an
 *    M: line. K: keyword matches are never used (they match contents, not ownership).
 *    The file's deciders are the M: addresses of the most specific remaining section(s) (all
 *    sections at that depth). Reviewers (R:) are not deciders: the process document gives the
 *    authority to maintainers, and R: people do not take patches for the subsystem.
 *  - Multi-file fixes: the disputers (one or more --by) must together cover EVERY file that has
 *    deciders (each such file needs at least one of its deciders among them), and every
 *    disputer must be a decider of at least one file. One maintainer cannot withdraw or reshape
 *    a CVE that also concerns another subsystem; a joint dispute can. Files that no eligible
 *    section covers (only THE REST/orphaned) impose nothing; if no file has deciders, nobody
 *    has dispute authority and the dispute is refused.
 *  - Addresses compare case-insensitively on the addr-spec. */
#ifndef KCVE_MAINTAINERS_AUTHORITY_H
#define KCVE_MAINTAINERS_AUTHORITY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"
#include "maintainers/maintainers.h"

struct authority_person {
	char *display;   /* "Name <addr>" as in MAINTAINERS */
	char *addr;      /* lower-cased addr-spec */
	char role;       /* 'M' or 'R' */
};

struct authority_file {
	char *file;
	size_t *sections;    /* the deciding sections (indices into m->sec) */
	size_t nsections;
	struct authority_person *people;   /* deciders (M:) then reviewers (R:) of those sections */
	size_t npeople;
	int depth;
	char *section_desc;    /* '"TITLE" and "TITLE"' of the deciding sections */
	const char *why_none;  /* set when the file has no deciders: which rule removed them */
};

struct authority {
	struct authority_file *files;
	size_t nfiles;
};

void authority_compute(const struct maintainers *m, const char *const *files, size_t nfiles,
                       struct authority *out);
void authority_release(struct authority *a);

/* Decide for the given disputer addresses. Returns true if allowed. `why` receives a one-line
 * explanation; `deciders` (may be NULL) the list of people who may decide ("Name <addr>, ..."). */
bool authority_decide(const struct authority *a, const char *const *emails, size_t nemails,
                      struct strbuf *why, struct strbuf *deciders);

#endif
