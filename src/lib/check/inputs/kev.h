/* CISA's Known Exploited Vulnerabilities catalogue (`kcve check --kev FILE`).
 *
 * The JSON document CISA publishes (known_exploited_vulnerabilities.json), read as its schema
 * says: an object with catalogVersion (string), dateReleased (string), count (integer) and
 * vulnerabilities (array); each vulnerability an object whose cveID matches
 * CVE-YYYY-NNNN+ (4 to 19 digits) and whose vendorProject, product, vulnerabilityName,
 * dateAdded, shortDescription, requiredAction and dueDate are strings; knownRansomwareCampaignUse,
 * notes (strings) and cwes (array of strings) are optional.  Anything else is refused with the
 * entry's index and the field, so a truncated or foreign file never passes as an empty catalogue.
 * The file is hostile input: a regular file of at most CK_KEV_MAX bytes. */
#ifndef KCVE_CHECK_KEV_H
#define KCVE_CHECK_KEV_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* The real catalogue is ~1.5 MB (1,404 entries in 2025, ~200 more a year); 8 MiB is five
 * times that.  The parsed document of a hostile file of minimal entries at the cap takes
 * ~115 MB (a check peaked at 143 MB against 28 MB without it: jansson's objects). */
#define CK_KEV_MAX ((size_t)8 << 20)

struct ck_kev_entry {
	char id[32];         /* "CVE-2024-53104" */
	char date_added[16]; /* "2025-02-05" (as written, at most 15 bytes kept) */
	bool ransomware;     /* knownRansomwareCampaignUse == "Known" */
	bool linux_kernel;   /* vendorProject "Linux" and product "Kernel" (or product "Linux Kernel") */
	char *name;          /* vulnerabilityName */
};

struct ck_kev {
	char version[32];        /* catalogVersion */
	struct ck_kev_entry *v;  /* sorted by id, one entry per id */
	size_t n;
	size_t nkernel;          /* entries with linux_kernel */
};

/* Parse the text of a catalogue; name is used in messages.  KCVE_E_PARSE on anything the schema
 * refuses. */
int ck_kev_parse(struct ck_kev *k, const char *text, size_t len, const char *name,
		 struct kcve_err *err);
/* Read and parse path (KCVE_E_NOTFOUND / KCVE_E_IO / KCVE_E_PARSE). */
int ck_kev_load(struct ck_kev *k, const char *path, struct kcve_err *err);
/* The entry for a CVE id, or NULL. */
const struct ck_kev_entry *ck_kev_find(const struct ck_kev *k, const char *id);
void ck_kev_release(struct ck_kev *k);

#endif
