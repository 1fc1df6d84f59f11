/* Pure path helpers (see paths.h).  What a source path is is decided here once for both
 * per-file answers, the evaluator (verdict.c) and the path export (pathinfo.c), so that the two
 * can never disagree on a path. */
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "kbuild/paths.h"

char *kbt_normalize(const char *dir, const char *word, size_t wn)
{
	struct strbuf in = STRBUF_INIT;
	if (dir && *dir && dir[0] != '.') {
		sb_adds(&in, dir);
		sb_addc(&in, '/');
	}
	sb_add(&in, word, wn);
	char *s = sb_detach(&in);
	/* split into components */
	char *comp[256];
	size_t nc = 0;
	char *save = NULL;
	for (char *tok = strtok_r(s, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (nc == 0) {
				free(s);
				return NULL;
			}
			nc--;
			continue;
		}
		if (nc == 256) {
			free(s);
			return NULL;
		}
		comp[nc++] = tok;
	}
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < nc; i++) {
		if (i)
			sb_addc(&out, '/');
		sb_adds(&out, comp[i]);
	}
	free(s);
	return sb_detach(&out);
}

char *kbt_listed_path(const char *dir, const char *w, size_t wn)
{
	size_t dl = strlen(dir);
	bool rooted = dl && wn > dl && !strncmp(w, dir, dl) && w[dl] == '/';
	return kbt_normalize(rooted ? "" : dir, w, wn);
}

char *kbt_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
}

bool kbt_ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && memcmp(s + n - k, suf, k) == 0;
}

/* Top-level directories of build-time host programs: compiled for the build machine,
 * never part of the kernel image or its modules. */
bool kbt_host_tool(const char *path)
{
	if (!strncmp(path, "scripts/", 8) || !strncmp(path, "tools/", 6))
		return true;
	if (!strncmp(path, "arch/", 5)) {
		const char *s = strchr(path + 5, '/');
		if (s && !strncmp(s, "/tools/", 7))
			return true;
	}
	return false;
}

char *kbt_object_of(const char *norm)
{
	const char *dot = strrchr(norm, '.'), *slash = strrchr(norm, '/');
	if (!dot || (slash && dot < slash) ||
	    (strcmp(dot, ".c") && strcmp(dot, ".S") && strcmp(dot, ".s")))
		return NULL;
	char *o = xstrdup(norm);
	o[dot - norm + 1] = 'o';
	return o;
}
