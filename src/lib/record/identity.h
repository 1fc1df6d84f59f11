/* Who sends the announcement mail: the "From:" line of every generated mbox.
 *
 * The anchor tool takes the address from -u / $CVE_USER and the name from git config; kcve
 * never hard-codes a person, so the identity is always resolved from the caller's
 * configuration in a fixed order (see identity_resolve). */
#ifndef KCVE_RECORD_IDENTITY_H
#define KCVE_RECORD_IDENTITY_H

#include <git2.h>

#include "core/error.h"

struct kcve_identity {
	char name[256];
	char email[256];
};

/* Sender identity: from_opt ("Name <email>") if given, else $KCVE_FROM, else $CVE_USER (email)
 * + git config user.name, else git config user.name/user.email (repo may be NULL).
 * 0, or KCVE_E_USAGE (malformed "Name <email>") / KCVE_E_NOTFOUND (nothing configured). */
int identity_resolve(struct kcve_identity *id, const char *from_opt, git_repository *repo,
		     struct kcve_err *err);

/* Every mail header value taken from a user or a record must pass this: no control character
 * but TAB (a CR or LF would start a new header, e.g. a Bcc:). 0 or KCVE_E_USAGE naming what. */
int identity_check_header(const char *what, const char *v, struct kcve_err *err);

/* Parse "Name <email>" (refused if identity_check_header fails) (name may be empty; surrounding blanks trimmed). 0 or KCVE_E_USAGE. */
int identity_parse(struct kcve_identity *id, const char *text, struct kcve_err *err);

#endif
