/* The .dyad text format (docs/spec/tree.md ".dyad files"): header comment lines, then one
 * "V:VG:F:FG" line per vulnerable/fixed pair; "0" stands for an unknown version/sha.
 * This header is the contract between the dyad engine and its consumers (records, tree
 * commands, check): they read and write pairs only through these types. */
#ifndef KCVE_HISTORY_DYAD_TEXT_H
#define KCVE_HISTORY_DYAD_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"

#define DYAD_VER_MAX 32

struct dyad_pair {
	char vver[DYAD_VER_MAX]; /* introducing release, "0" if unknown */
	char vsha[41];           /* introducing commit, "0" if unknown */
	char fver[DYAD_VER_MAX]; /* fixing release, "0" if not fixed on that branch */
	char fsha[41];           /* fixing commit, "0" if not fixed */
};

struct dyad_list {
	struct dyad_pair *v;
	size_t n, alloc;
};

void dyad_list_init(struct dyad_list *l);
void dyad_list_release(struct dyad_list *l);
/* Room for n more pairs (one allocation when the count is known in advance). */
void dyad_list_reserve(struct dyad_list *l, size_t n);
void dyad_list_push(struct dyad_list *l, const char *vver, const char *vsha, const char *fver,
		    const char *fsha);

/* Parse .dyad text: '#' lines and blank lines are skipped; every other line must have exactly
 * four ':'-separated fields. Returns 0, or the 1-based number of the first malformed line
 * (the list then holds the pairs before it). */
size_t dyad_parse(const char *text, struct dyad_list *out);
/* Append "V:VG:F:FG\n" for each pair. */
void dyad_format_pairs(const struct dyad_list *l, struct strbuf *sb);

bool dyad_pair_unknown_intro(const struct dyad_pair *p); /* 0:0:F:FG */
bool dyad_pair_unfixed(const struct dyad_pair *p);       /* V:VG:0:0 */
/* Introduced and fixed in the same release: never shipped vulnerable. */
bool dyad_pair_same_version(const struct dyad_pair *p);

#endif
