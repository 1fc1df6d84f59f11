/* Preprocessor lines as both `#include "x.c"` walks read them: the evaluator (includes.c,
 * decides each `#if` from a config) and the path export (pathinfo.c, writes it as a
 * condition), so that the two can never disagree on which forms they understand. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "kbuild/paths.h"
#include "kbuild/ppline.h"

/* 0/1, IS_ENABLED(CONFIG_X), IS_BUILTIN, IS_MODULE, defined(CONFIG_X) / defined CONFIG_X,
 * optionally negated; anything else is KBT_PP_UNKNOWN. */
static void pp_operand(const char *e, size_t n, struct kbt_pp_operand *op)
{
	*op = (struct kbt_pp_operand){.kind = KBT_PP_UNKNOWN};
	while (n && (*e == ' ' || *e == '\t')) {
		e++;
		n--;
	}
	while (n && (e[n - 1] == ' ' || e[n - 1] == '\t' || e[n - 1] == '\r'))
		n--;
	while (n && *e == '!') {
		op->neg = !op->neg;
		e++;
		n--;
		while (n && *e == ' ') {
			e++;
			n--;
		}
	}
	if (n == 1 && (*e == '0' || *e == '1')) {
		op->kind = *e == '1' ? KBT_PP_TRUE : KBT_PP_FALSE;
		return;
	}
	static const struct {
		const char *prefix;
		enum kbt_pp_kind kind;
	} fns[] = {
		{"IS_ENABLED(", KBT_PP_IS_ENABLED}, {"IS_BUILTIN(", KBT_PP_IS_BUILTIN},
		{"defined(", KBT_PP_DEFINED},       {"defined ", KBT_PP_DEFINED},
		{"IS_MODULE(", KBT_PP_IS_MODULE},
	};
	for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
		size_t fl = strlen(fns[i].prefix);
		if (n <= fl || memcmp(e, fns[i].prefix, fl) != 0)
			continue;
		const char *a = e + fl;
		size_t k = 0;
		while (a + k < e + n && (isalnum((unsigned char)a[k]) || a[k] == '_'))
			k++;
		const char *rest = a + k;
		bool closed = fns[i].prefix[fl - 1] == '(' ? rest < e + n && *rest == ')' && rest + 1 == e + n
							    : rest == e + n;
		if (closed && k > 7 && memcmp(a, "CONFIG_", 7) == 0) {
			op->kind = fns[i].kind;
			op->sym = a;
			op->symlen = k;
		}
		return;
	}
}

static void pp_line(const char *line, size_t ln, const char *dir, struct kbt_pp_line *out)
{
	out->kind = KBT_PPL_OTHER;
	out->include = NULL;
	out->cond = (struct kbt_pp_operand){.kind = KBT_PP_UNKNOWN};
	const char *q = line;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != '#')
		return;
	q++;
	while (*q == ' ' || *q == '\t')
		q++;
	size_t rest = ln - (size_t)(q - line);
	out->text = q;
	out->len = rest;
	if (!strncmp(q, "if", 2) && rest > 2) {
		out->kind = KBT_PPL_IF;
		if (!strncmp(q, "ifdef ", 6) || !strncmp(q, "ifndef ", 7)) {
			bool ndef = q[2] == 'n';
			const char *nm = q + (ndef ? 7 : 6);
			while (*nm == ' ' || *nm == '\t')
				nm++;
			size_t k = 0;
			while (isalnum((unsigned char)nm[k]) || nm[k] == '_')
				k++;
			int el = snprintf(out->ifdef, sizeof(out->ifdef), "defined(%.*s)",
					  (int)(k < 140 ? k : 140), nm);
			pp_operand(out->ifdef, (size_t)el, &out->cond);
			out->cond.neg = ndef;
		} else if (!strncmp(q, "if ", 3) || !strncmp(q, "if(", 3) || !strncmp(q, "if\t", 3)) {
			pp_operand(q + 2, rest - 2, &out->cond);
		}
	} else if (!strncmp(q, "elif", 4)) {
		out->kind = KBT_PPL_ELIF;
	} else if (!strncmp(q, "else", 4)) {
		out->kind = KBT_PPL_ELSE;
	} else if (!strncmp(q, "endif", 5)) {
		out->kind = KBT_PPL_ENDIF;
	} else if (!strncmp(q, "include", 7)) {
		const char *a = q + 7;
		while (*a == ' ' || *a == '\t')
			a++;
		const char *b = *a == '"' ? memchr(a + 1, '"', ln - (size_t)(a + 1 - line)) : NULL;
		if (b && b - a >= 3 && !memcmp(b - 2, ".c", 2)) {
			out->include = kbt_normalize(dir, a + 1, (size_t)(b - a - 1));
			if (out->include)
				out->kind = KBT_PPL_INCLUDE_C;
		}
	}
}

bool kbt_pp_next(const char **p, const char *dir, struct kbt_pp_line *out)
{
	const char *s = *p;
	if (!*s)
		return false;
	const char *e = strchr(s, '\n');
	size_t ln = e ? (size_t)(e - s) : strlen(s);
	*p = e ? e + 1 : s + ln;
	pp_line(s, ln, dir, out);
	return true;
}
