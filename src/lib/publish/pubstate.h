/* What cve.org and the announce list were told about each CVE, kept in the tree under
 * cve/.published/<CVE> ("key=value" lines, replaced atomically). A step is recorded only
 * after the server (HTTP 2xx) or the SMTP relay (250) confirmed it, so a crash at any point
 * makes the next run redo at most the step that was in flight — and each step is safe to
 * redo: publish falls back to update, mails are resent from the outbox with their stored
 * Message-Id. */
#ifndef KCVE_PUBLISH_PUBSTATE_H
#define KCVE_PUBLISH_PUBSTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

struct pubstate {
	char remote[16];        /* "", "published", "rejected", "returned": last state sent */
	char hash[41];          /* sha1 of the .json content last published */
	char announce_id[256];  /* Message-Id minted for the announcement ("" = none yet) */
	char announce_date[64];
	bool announced;         /* the announcement got its 250 */
	char reject_id[256];    /* same for the rejection reply */
	char reject_date[64];
	bool reject_mailed;
};

/* Missing file = all empty (0). */
int pubstate_load(const char *tree_root, const char *cve, struct pubstate *st,
		  struct kcve_err *err);
int pubstate_save(const char *tree_root, const char *cve, const struct pubstate *st,
		  struct kcve_err *err);
/* Hex sha1 of data (git blob hash, via libgit2). */
void pubstate_hash(const char *data, size_t len, char out[41]);

#endif
