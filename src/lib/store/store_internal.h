/* Helpers shared by the store module's operation files (not for other areas). */
#ifndef KCVE_STORE_STORE_INTERNAL_H
#define KCVE_STORE_STORE_INTERNAL_H

#include <jansson.h>
#include <stddef.h>

#include "core/strbuf.h"
#include "store/tree.h"

struct kcve_identity;

/* "cve/<state>/<year>/<name>"; caller frees. */
char *store_rel(enum cve_state s, int year, const char *name);
/* File names of one CVE in its directory (sorted); free with store_free_names. */
size_t store_cve_files(const struct cve_entry *e, char ***out);
void store_free_names(char **v, size_t n);
/* Read CVE file (ext "" = base file) into sb; 0 or -1. */
int store_read_cve_file(const struct cve_entry *e, const char *ext, struct strbuf *sb);
/* Value (after the colon, untrimmed) of a header in a mail's header block, or NULL. */
char *mail_header(const char *mail, const char *name);
/* Whether a record's containers.cna lists the commit sha (40 hex) as a reference (a URL
 * ending in it: the fix and its backports, https://git.kernel.org/stable/c/SHA). */
bool store_json_references(json_t *cna, const char *sha);
void store_render_rejection(const char *cve, const char *orig_mbox,
			    const struct kcve_identity *who, struct strbuf *out);

#endif
