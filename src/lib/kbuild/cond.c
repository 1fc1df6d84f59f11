/* The condition algebra (see cond.h): string conditions built while the symbolic evaluation
 * follows every list, and simplified just enough to stay readable in the export. */
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "kbuild/cond.h"

#define MAX_COND_LEN 1500

char *kbt_cond_from_syms(const char *syms)
{
	struct strbuf out = STRBUF_INIT;
	char **seen = NULL;
	size_t nseen = 0, alloc = 0;
	const char *p = syms;
	while (*p) {
		while (*p == ' ' || *p == '&')
			p++;
		const char *e = p;
		while (*e && *e != ' ' && *e != '&')
			e++;
		size_t n = (size_t)(e - p);
		bool lit = (n > 7 && !strncmp(p, "CONFIG_", 7)) || (n > 8 && !strncmp(p, "!CONFIG_", 8));
		bool dup = false;
		for (size_t i = 0; lit && i < nseen; i++)
			if (strlen(seen[i]) == n && !memcmp(seen[i], p, n))
				dup = true;
		if (lit && !dup) {
			XGROW(seen, nseen + 1, alloc);
			seen[nseen++] = xstrndup(p, n);
			if (out.len)
				sb_adds(&out, " && ");
			sb_add(&out, p, n);
		}
		p = e;
	}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	if (!out.len)
		sb_adds(&out, "y");
	return sb_detach(&out);
}

static bool pure_conj(const char *a)
{
	return !strchr(a, '|') && !strchr(a, '(');
}

char *kbt_cond_and(const char *a, const char *b)
{
	if (!strcmp(a, "unknown") || !strcmp(b, "unknown"))
		return xstrdup("unknown");
	if (!strcmp(a, "y"))
		return xstrdup(b);
	if (!strcmp(b, "y") || !strcmp(a, b))
		return xstrdup(a);
	struct strbuf sb = STRBUF_INIT;
	if (pure_conj(a) && pure_conj(b)) {
		sb_adds(&sb, a);
		sb_addc(&sb, ' ');
		sb_adds(&sb, b);
		char *s = kbt_cond_from_syms(sb_str(&sb));
		sb_release(&sb);
		return s;
	}
	sb_addf(&sb, "%s%s%s && %s%s%s", pure_conj(a) ? "" : "(", a, pure_conj(a) ? "" : ")",
		pure_conj(b) ? "" : "(", b, pure_conj(b) ? "" : ")");
	if (sb.len > MAX_COND_LEN) {
		sb_release(&sb);
		return xstrdup("unknown");
	}
	return sb_detach(&sb);
}

char *kbt_cond_or(const char *a, const char *b)
{
	if (!strcmp(a, "y") || !strcmp(b, "y"))
		return xstrdup("y");
	if (!strcmp(a, b))
		return xstrdup(a);
	if (!strcmp(a, "unknown") || !strcmp(b, "unknown"))
		return xstrdup("unknown");
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "(%s) || (%s)", a, b);
	if (sb.len > MAX_COND_LEN) {
		sb_release(&sb);
		return xstrdup("unknown");
	}
	return sb_detach(&sb);
}

/* pre followed by s, as a new string */
static char *concat(const char *pre, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, pre);
	sb_adds(&sb, s);
	return sb_detach(&sb);
}

char *kbt_literals(const char *syms, bool negate)
{
	char *conj = kbt_cond_from_syms(syms);
	if (!negate || !strcmp(conj, "y")) {
		if (!strcmp(conj, "y")) {
			free(conj);
			return xstrdup("");
		}
		char *r = concat(" ", conj);
		free(conj);
		return r;
	}
	char *r = strstr(conj, " && ") ? xstrdup("")
		  : conj[0] == '!' ? concat(" ", conj + 1) : concat(" !", conj);
	free(conj);
	return r;
}
