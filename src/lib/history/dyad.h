/* Vulnerable:fixed pair computation with the kernel CNA's dyad algorithm (docs/spec/dyad.md). */
#ifndef KCVE_HISTORY_DYAD_H
#define KCVE_HISTORY_DYAD_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "history/dyad_text.h"
#include "history/history.h"

/* The version string printed in the "# dyad version:" header line. */
/* The anchor prints its crate version here; kcve prints the anchor version whose algorithm it
 * reproduces, so regenerated files differ from published ones only where results differ. */
#define DYAD_TOOL_VERSION "1.2.0"

struct dyad_request {
	const char *const *fixes;      size_t nfixes;       /* first = main fix; short ids ok */
	const char *const *vulnerable; size_t nvulnerable;  /* explicit introducing commits */
};

/* Compute pairs with the anchor algorithm (docs/spec/dyad.md). header (may be NULL) receives the
 * '#' comment lines exactly as `kcve dyad` prints them. 0, or an error code with err filled. */
int dyad_compute(struct history *h, const struct dyad_request *req, struct dyad_list *out,
		 struct strbuf *header, struct kcve_err *err);

#endif
