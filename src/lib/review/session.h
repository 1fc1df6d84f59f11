/* One reviewer's review of one release: the vote file being written
 * (cve/review/proposed/<tag>-<reviewer>) and the progress file
 * (tmp/cve-review/processed/<tag>-<reviewer>, as the real tools keep it) that lets a rerun
 * resume after 'q'. Both are rewritten atomically after every answer, vote first, so a crash
 * can at worst ask the last question again (a repeated "yes" is not written twice). */
#ifndef KCVE_REVIEW_SESSION_H
#define KCVE_REVIEW_SESSION_H

#include <stdbool.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "review/range.h"

struct review_session {
	char *votes_path;
	char *progress_path;
	struct strbuf votes;     /* current vote file text */
	struct strbuf progress;  /* processed stable ids, one per line */
};

int session_open(struct review_session *s, const char *tree_root, const char *tag,
		 const char *reviewer, struct kcve_err *err);
bool session_processed(const struct review_session *s, const char *id);
/* Record the answer for c: vote (with optional suffix such as "[auto: cve already created]")
 * or not, then mark it processed. */
int session_answer(struct review_session *s, const struct range_commit *c, bool vote,
		   const char *suffix, struct kcve_err *err);
void session_close(struct review_session *s);

#endif
