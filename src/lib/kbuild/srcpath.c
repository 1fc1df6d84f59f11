/* What a source path is, decided once for both per-file answers: the evaluator (verdict.c)
 * and the path export (pathinfo.c), so that the two can never disagree on a path. */
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/kbuild_tree.h"

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
