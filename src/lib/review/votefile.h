/* Reviewer vote files (cve/review/proposed/<tag>-<reviewer>, cve/review/done/vX.Y/...).
 *
 * The real files are plain text written by hand and by the review tools: a vote is a line that
 * starts with an abbreviated mainline commit id followed by the subject (sometimes quoted as
 * ("subject"), sometimes followed by "[auto: cve already created]"); annotated files interleave
 * "- [user] text" paragraphs with indented continuation lines; some files are saved tally
 * outputs. Parsing never fails on text: lines that are neither votes nor annotations are
 * counted as notes. */
#ifndef KCVE_REVIEW_VOTEFILE_H
#define KCVE_REVIEW_VOTEFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"

struct vote {
	char sha[41];     /* lower-case hex prefix as written (7..40 chars) */
	char *subject;    /* "" when the line has none */
	bool auto_cve;    /* "[auto: cve already created]" */
	char *annotation; /* text of the following "- [user] ..." paragraph, or NULL */
};

struct votefile {
	char *tag;        /* "v6.7.2", or the review source name for file-based reviews */
	char *reviewer;   /* "greg" */
	bool annotated;   /* "<tag>-annotated-<reviewer>" */
	bool fromfile;    /* "<file>-fromfile-<reviewer>" or "...review-fromfile-<reviewer>" */
	struct vote *v;
	size_t n, alloc;
	size_t notes;     /* lines that are neither votes nor annotations */
};

/* Split a vote file's base name into tag / reviewer; false if it has no '-' at all. */
bool votefile_split_name(const char *base, struct votefile *vf);
/* Parse file text (any bytes) into vf (votes appended). */
void votefile_parse_text(const char *text, size_t len, struct votefile *vf);
/* Read and parse a file; -1 with errno on read failure. */
int votefile_load(const char *path, struct votefile *vf);
void votefile_release(struct votefile *vf);
/* Render one vote line as the review tools write it: "<12-hex> <subject>[ annotation]\n". */
void votefile_format_vote(struct strbuf *sb, const char *sha, const char *subject,
			  const char *suffix);

#endif
