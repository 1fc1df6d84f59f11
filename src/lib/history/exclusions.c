/* The vulns tree's hand-maintained exception lists (docs/spec/dyad.md):
 * scripts/not_fixes   - stable backports that look like a fix but are not;
 * scripts/not_reverts - commits whose later revert does not undo them.
 * One id per line (the first hex run of the line); '#' lines are comments. A missing file is
 * an empty list. Ids may be abbreviated; they match any full sha they prefix. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/sha.h"
#include "core/xalloc.h"
#include "history/history_internal.h"

static int load_list(const char *root, const char *name, char ***out, size_t *n,
		     struct kcve_err *err)
{
	struct strbuf psb = STRBUF_INIT;
	sb_addf(&psb, "%s/scripts/%s", root, name);
	char *path = sb_detach(&psb);
	struct strbuf sb = STRBUF_INIT;
	size_t alloc = 0;
	if (read_file(path, &sb) != 0) {
		int e = errno;
		free(path);
		sb_release(&sb);
		if (e == ENOENT)
			return 0;
		return kcve_err_set(err, KCVE_E_IO, "cannot read %s/scripts/%s: %s", root, name,
				    strerror(e));
	}
	free(path);
	for (char *line = sb.buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t hl = hex_run(p);
		if (*p != '#' && hl >= 7) {
			XGROW(*out, *n + 1, alloc);
			char *id = xstrndup(p, hl > 40 ? 40 : hl);
			sha_lower(id);
			(*out)[(*n)++] = id;
		}
		line = nl ? nl + 1 : NULL;
	}
	sb_release(&sb);
	return 0;
}

int history_load_exclusions(struct history *h, const char *vulns_tree_root, struct kcve_err *err)
{
	if (!vulns_tree_root)
		return 0;
	int rc = load_list(vulns_tree_root, "not_fixes", &h->not_fixes, &h->n_not_fixes, err);
	if (!rc)
		rc = load_list(vulns_tree_root, "not_reverts", &h->not_reverts, &h->n_not_reverts, err);
	return rc;
}

static bool in_list(char **v, size_t n, const char *sha40)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(v[i], sha40, strlen(v[i])) == 0)
			return true;
	return false;
}

bool history_in_not_fixes(struct history *h, const char *sha40)
{
	return in_list(h->not_fixes, h->n_not_fixes, sha40);
}

bool history_in_not_reverts(struct history *h, const char *sha40)
{
	return in_list(h->not_reverts, h->n_not_reverts, sha40);
}
