/* get_maintainer.pl's address helpers, regex for regex (see email.h). */
#include "maintainers/email.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "core/assert.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "maintainers/perlre.h"

/* Lazily compiled regexes live for the whole process (reachable, never leaked). */
static struct perlre *rx(struct perlre **slot, const char *pat, unsigned flags)
{
	if (!*slot) {
		char eb[200];
		*slot = perlre_compile(pat, flags, eb, sizeof(eb));
		/* an invariant: every pattern is built from constants of this file, never from input; the
		 * maintainers tests call every function here, so each pattern is compiled there */
		KCVE_ASSERT(*slot != NULL);
	}
	return *slot;
}

static char *group(const char *s, const size_t *ov, int g)
{
	if (ov[2 * g] == SIZE_MAX)
		return xstrdup("");
	return xstrndup(s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
}

static bool perl_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* s/^\s+|\s+$//g */
static void trim(char *s)
{
	size_t n = strlen(s), a = 0;
	while (a < n && perl_space((unsigned char)s[a]))
		a++;
	while (n > a && perl_space((unsigned char)s[n - 1]))
		n--;
	memmove(s, s + a, n - a);
	s[n - a] = '\0';
}

/* s/^\"|\"$//g: one quote off each end (a lone '"' is removed once). */
static void unquote_ends(char *s)
{
	size_t n = strlen(s);
	if (n && s[0] == '"') {
		memmove(s, s + 1, n);
		n--;
		/* Perl's /g continues after the first match: a trailing quote is still removed. */
	}
	if (n && s[n - 1] == '"')
		s[--n] = '\0';
}

static bool is_word_space_dash(int c)
{
	return isascii(c) && (isalnum(c) || c == '_' || c == ' ' || c == '-');
}

/* if ($name =~ /[^\w \-]/i) { s/(?<!\\)"/\\"/g; $name = "\"$name\"" } */
static char *quote_name(char *name)
{
	bool must = false;
	for (const char *p = name; *p; p++)
		if (!is_word_space_dash((unsigned char)*p))
			must = true;
	if (!must)
		return name;
	struct strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"' && !(p > name && p[-1] == '\\'))
			sb_addc(&sb, '\\');
		sb_addc(&sb, *p);
	}
	sb_addc(&sb, '"');
	free(name);
	return sb_detach(&sb);
}

void mnt_parse_email(const char *formatted, char **name_out, char **addr_out)
{
	static struct perlre *r1, *r2, *r3;
	size_t ov[6];
	size_t len = strlen(formatted);
	char *name = NULL, *addr = NULL;
	if (perlre_search(rx(&r1, "^([^<]+)<(.+\\@.*)>.*$", 0), formatted, len, 0, ov, 6)) {
		name = group(formatted, ov, 1);
		addr = group(formatted, ov, 2);
	} else if (perlre_search(rx(&r2, "^\\s*<(.+\\@\\S*)>.*$", 0), formatted, len, 0, ov, 4)) {
		addr = group(formatted, ov, 1);
	} else if (perlre_search(rx(&r3, "^(.+\\@\\S*).*$", 0), formatted, len, 0, ov, 4)) {
		addr = group(formatted, ov, 1);
	}
	if (!name)
		name = xstrdup("");
	if (!addr)
		addr = xstrdup("");
	trim(name);
	unquote_ends(name);
	trim(addr);
	*name_out = quote_name(name);
	*addr_out = addr;
}

char *mnt_format_email(const char *name_in, const char *addr_in)
{
	char *name = xstrdup(name_in), *addr = xstrdup(addr_in);
	trim(name);
	unquote_ends(name);
	trim(addr);
	name = quote_name(name);
	struct strbuf sb = STRBUF_INIT;
	if (!*name)
		sb_adds(&sb, addr);
	else
		sb_addf(&sb, "%s <%s>", name, addr);
	free(name);
	free(addr);
	return sb_detach(&sb);
}

char *mnt_email_address_lc(const char *formatted)
{
	char *n, *a;
	mnt_parse_email(formatted, &n, &a);
	free(n);
	for (char *p = a; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return a;
}

/* ---- RFC 822 (make_rfc822re and friends) ---- */

#define LWSP "(?:(?:\\r\\n)?[ \\t])"

static const char *rfc822re(void)
{
	static char *re;
	if (re)
		return re;
	const char *specials = "()<>@,;:\\\\\".\\[\\]";
	const char *controls = "\\000-\\037\\177";
	struct strbuf dtext = STRBUF_INIT, dl = STRBUF_INIT, qs = STRBUF_INIT, atom = STRBUF_INIT,
	              word = STRBUF_INIT, lp = STRBUF_INIT, sd = STRBUF_INIT, dom = STRBUF_INIT,
	              as = STRBUF_INIT, route = STRBUF_INIT, ra = STRBUF_INIT, mb = STRBUF_INIT,
	              grp = STRBUF_INIT, all = STRBUF_INIT;
	sb_adds(&dtext, "[^\\[\\]\\r\\\\]");
	sb_addf(&dl, "\\[(?:%s|\\\\.)*\\]%s*", dtext.buf, LWSP);
	sb_addf(&qs, "\"(?:[^\\\"\\r\\\\]|\\\\.|%s)*\"%s*", LWSP, LWSP);
	sb_addf(&atom, "[^%s %s]+(?:%s+|\\Z|(?=[\\[\"%s]))", specials, controls, LWSP, specials);
	sb_addf(&word, "(?:%s|%s)", atom.buf, qs.buf);
	sb_addf(&lp, "%s(?:\\.%s*%s)*", word.buf, LWSP, word.buf);
	sb_addf(&sd, "(?:%s|%s)", atom.buf, dl.buf);
	sb_addf(&dom, "%s(?:\\.%s*%s)*", sd.buf, LWSP, sd.buf);
	sb_addf(&as, "%s\\@%s*%s", lp.buf, LWSP, dom.buf);
	/* phrase = "$word*" */
	sb_addf(&route, "(?:\\@%s(?:,\\@%s*%s)*:%s*)", dom.buf, LWSP, dom.buf, LWSP);
	sb_addf(&ra, "\\<%s*%s?%s\\>%s*", LWSP, route.buf, as.buf, LWSP);
	sb_addf(&mb, "(?:%s|%s*%s)", as.buf, word.buf, ra.buf);
	sb_addf(&grp, "%s*:%s*(?:%s(?:,\\s*%s)*)?;\\s*", word.buf, LWSP, mb.buf, mb.buf);
	sb_addf(&all, "%s*(?:%s|%s)", LWSP, mb.buf, grp.buf);
	re = sb_detach(&all);
	struct strbuf *v[] = {&dtext, &dl, &qs, &atom, &word, &lp, &sd, &dom, &as, &route, &ra, &mb, &grp};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		sb_release(v[i]);
	return re;
}

/* rfc822_strip_comments: replace (comments) outside quotes by one space, repeatedly. */
static char *strip_comments(const char *in)
{
	static struct perlre *r;
	struct perlre *re = rx(&r,
	                       "^((?:[^\"\\\\]|\\\\.)*(?:\"(?:[^\"\\\\]|\\\\.)*\"(?:[^\"\\\\]|\\\\.)*)*)"
	                       "\\((?:[^()\\\\]|\\\\.)*\\)",
	                       PERLRE_DOTALL);
	char *s = xstrdup(in);
	size_t ov[4];
	for (int guard = 0; guard < 10000; guard++) {
		size_t len = strlen(s);
		if (!perlre_search(re, s, len, 0, ov, 4))
			break;
		struct strbuf sb = STRBUF_INIT;
		sb_add(&sb, s, ov[3]);
		sb_addc(&sb, ' ');
		sb_adds(&sb, s + ov[1]);
		free(s);
		s = sb_detach(&sb);
	}
	return s;
}

bool mnt_rfc822_valid(const char *in)
{
	static struct perlre *r;
	if (!r) {
		struct strbuf p = STRBUF_INIT;
		sb_addf(&p, "^%s$", rfc822re());
		rx(&r, p.buf, PERLRE_DOTALL);
		sb_release(&p);
	}
	char *s = strip_comments(in);
	bool ok = perlre_search(r, s, strlen(s), 0, NULL, 0);
	free(s);
	return ok;
}

bool mnt_rfc822_validlist(const char *in, char ***list, size_t *items)
{
	static struct perlre *rall, *ritem;
	if (!rall) {
		struct strbuf p = STRBUF_INIT;
		sb_addf(&p, "^(?:%s)?(?:,(?:%s)?)*$", rfc822re(), rfc822re());
		rx(&rall, p.buf, PERLRE_DOTALL);
		sb_reset(&p);
		sb_addf(&p, "(?:^|,%s*)(%s)", LWSP, rfc822re());
		rx(&ritem, p.buf, PERLRE_DOTALL);
		sb_release(&p);
	}
	char *s = strip_comments(in);
	size_t len = strlen(s);
	*list = NULL;
	*items = 0;
	if (!perlre_search(rall, s, len, 0, NULL, 0)) {
		free(s);
		return false;
	}
	size_t pos = 0, alloc = 0, ov[4];
	while (pos <= len && perlre_search(ritem, s, len, pos, ov, 4)) {
		XGROW(*list, *items + 1, alloc);
		(*list)[(*items)++] = group(s, ov, 1);
		pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	free(s);
	return true;
}

size_t mnt_split_addresses(const char *value, char ***out)
{
	char **v = NULL;
	size_t n = 0;
	if (mnt_rfc822_valid(value)) {
		v = xmalloc(sizeof(*v));
		v[n++] = xstrdup(value);
	} else if (mnt_rfc822_validlist(value, &v, &n) && n > 0) {
		/* while (my $entry = shift(@address_list)): stops at a false entry ("" or "0") */
		size_t k = 0;
		while (k < n && v[k][0] && strcmp(v[k], "0") != 0)
			k++;
		for (size_t i = k; i < n; i++)
			free(v[i]);
		n = k;
	} else {
		if (v)
			free(v);
		v = xmalloc(sizeof(*v));
		n = 0;
		v[n++] = xstrdup(value);
	}
	*out = v;
	return n;
}

void mnt_free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- .mailmap ---- */

struct mm_pair {
	char *key, *val;
};
struct mailmap {
	struct mm_pair *names, *addrs;
	size_t nnames, naddrs, anames, aaddrs;
};

static void mm_put(struct mm_pair **v, size_t *n, size_t *alloc, const char *k, const char *val)
{
	for (size_t i = 0; i < *n; i++) {
		if (strcmp((*v)[i].key, k) == 0) {   /* Perl hash: last assignment wins */
			free((*v)[i].val);
			(*v)[i].val = xstrdup(val);
			return;
		}
	}
	XGROW(*v, *n + 1, *alloc);
	(*v)[*n].key = xstrdup(k);
	(*v)[*n].val = xstrdup(val);
	(*n)++;
}

static const char *mm_get(const struct mm_pair *v, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].key, k) == 0)
			return v[i].val;
	return NULL;
}

static void rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && perl_space((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

struct mailmap *mailmap_parse(const char *text, size_t len)
{
	static struct perlre *f1, *f2, *f3, *f4;
	struct mailmap *mm = xcalloc(1, sizeof(*mm));
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		char *line = xstrndup(p, (size_t)(le - p));
		p = nl ? nl + 1 : end;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		trim(line);
		size_t l = strlen(line), ov[10];
		if (!l) {
			free(line);
			continue;
		}
		if (perlre_search(rx(&f1, "^([^<]+)<([^>]+)>$", 0), line, l, 0, ov, 6)) {
			char *rn = group(line, ov, 1), *ad = group(line, ov, 2), *n2, *a2;
			rtrim(rn);
			struct strbuf t = STRBUF_INIT;
			sb_addf(&t, "%s <%s>", rn, ad);
			mnt_parse_email(t.buf, &n2, &a2);
			mm_put(&mm->names, &mm->nnames, &mm->anames, a2, n2);
			sb_release(&t);
			free(rn), free(ad), free(n2), free(a2);
		} else if (perlre_search(rx(&f2, "^<([^>]+)>\\s*<([^>]+)>$", 0), line, l, 0, ov, 6)) {
			char *ra = group(line, ov, 1), *wa = group(line, ov, 2);
			mm_put(&mm->addrs, &mm->naddrs, &mm->aaddrs, wa, ra);
			free(ra), free(wa);
		} else if (perlre_search(rx(&f3, "^(.+)<([^>]+)>\\s*<([^>]+)>$", 0), line, l, 0, ov, 8)) {
			char *rn = group(line, ov, 1), *ra = group(line, ov, 2), *wa = group(line, ov, 3);
			char *n2, *a2;
			rtrim(rn);
			struct strbuf t = STRBUF_INIT;
			sb_addf(&t, "%s <%s>", rn, ra);
			mnt_parse_email(t.buf, &n2, &a2);
			mm_put(&mm->names, &mm->nnames, &mm->anames, wa, n2);
			mm_put(&mm->addrs, &mm->naddrs, &mm->aaddrs, wa, a2);
			sb_release(&t);
			free(rn), free(ra), free(wa), free(n2), free(a2);
		} else if (perlre_search(rx(&f4, "^(.+)<([^>]+)>\\s*(.+)\\s*<([^>]+)>$", 0), line, l, 0,
		                         ov, 10)) {
			char *rn = group(line, ov, 1), *ra = group(line, ov, 2);
			char *wn = group(line, ov, 3), *wa = group(line, ov, 4);
			char *rn2, *ra2, *wn2, *wa2;
			rtrim(rn);
			rtrim(wn);
			struct strbuf t = STRBUF_INIT;
			sb_addf(&t, "%s <%s>", rn, ra);
			mnt_parse_email(t.buf, &rn2, &ra2);
			sb_reset(&t);
			sb_addf(&t, "%s <%s>", wn, wa);
			mnt_parse_email(t.buf, &wn2, &wa2);
			char *we = mnt_format_email(wn2, wa2);
			mm_put(&mm->names, &mm->nnames, &mm->anames, we, rn2);
			mm_put(&mm->addrs, &mm->naddrs, &mm->aaddrs, we, ra2);
			sb_release(&t);
			free(rn), free(ra), free(wn), free(wa), free(rn2), free(ra2), free(wn2),
				free(wa2), free(we);
		}
		free(line);
	}
	return mm;
}

void mailmap_free(struct mailmap *mm)
{
	if (!mm)
		return;
	for (size_t i = 0; i < mm->nnames; i++)
		free(mm->names[i].key), free(mm->names[i].val);
	for (size_t i = 0; i < mm->naddrs; i++)
		free(mm->addrs[i].key), free(mm->addrs[i].val);
	free(mm->names);
	free(mm->addrs);
	free(mm);
}

char *mailmap_email(const struct mailmap *mm, const char *formatted)
{
	char *name, *addr;
	mnt_parse_email(formatted, &name, &addr);
	char *email = mnt_format_email(name, addr);
	const char *rn = name, *ra = addr;
	if (mm) {
		const char *n1 = mm_get(mm->names, mm->nnames, email);
		const char *a1 = mm_get(mm->addrs, mm->naddrs, email);
		if (n1 || a1) {
			if (n1)
				rn = n1;
			if (a1)
				ra = a1;
		} else {
			const char *n2 = mm_get(mm->names, mm->nnames, addr);
			const char *a2 = mm_get(mm->addrs, mm->naddrs, addr);
			if (n2)
				rn = n2;
			if (a2)
				ra = a2;
		}
	}
	char *res = mnt_format_email(rn, ra);
	free(email);
	free(name);
	free(addr);
	return res;
}

/* ---- addresses inside files (.yaml bindings) ---- */

/* The Perl source has the class "À-ÿ" in UTF-8 without 'use utf8', i.e. bytes C3, 80-C3, BF. */
#define NAMECHARS "A-Za-z\\xc3\\x80-\\xc3\\xbf"

static char *clean_one(const char *raw)
{
	static struct perlre *sub, *split, *letter;
	struct perlre *rs = rx(&sub, "[\\(\\<\\{]{0,1}([A-Za-z0-9_\\.\\+-]+\\@[A-Za-z0-9\\.-]+)[\\)\\>\\}]{0,1}", 0);
	/* s/.../\<$1\>/g */
	struct strbuf e = STRBUF_INIT;
	size_t len = strlen(raw), pos = 0, ov[4];
	while (pos <= len && perlre_search(rs, raw, len, pos, ov, 4)) {
		sb_add(&e, raw + pos, ov[0] - pos);
		sb_addc(&e, '<');
		sb_add(&e, raw + ov[2], ov[3] - ov[2]);
		sb_addc(&e, '>');
		pos = ov[1];
		if (ov[1] == ov[0]) {
			if (pos < len)
				sb_addc(&e, raw[pos]);
			pos++;
		}
	}
	if (pos < len)
		sb_adds(&e, raw + pos);
	char *name, *addr;
	mnt_parse_email(sb_str(&e), &name, &addr);
	sb_release(&e);
	if (strcmp(name, "\"[,\\.]\"") == 0)
		name[0] = '\0';

	/* my @nw = split(/[^A-Za-zÀ-ÿ\'\,\.\+-]/, $name); trailing empty fields dropped */
	struct perlre *rsp = rx(&split, "[^" NAMECHARS "\\'\\,\\.\\+-]", 0);
	char **nw = NULL;
	size_t nnw = 0, anw = 0, nl = strlen(name);
	pos = 0;
	for (;;) {
		size_t fe = nl;
		bool hit = pos < nl && perlre_search(rsp, name, nl, pos, ov, 2);
		if (hit)
			fe = ov[0];
		XGROW(nw, nnw + 1, anw);
		nw[nnw++] = xstrndup(name + pos, fe - pos);
		if (!hit)
			break;
		pos = ov[1];
	}
	while (nnw && !nw[nnw - 1][0])
		free(nw[--nnw]);
	if (nnw > 2) {
		const char *first = nw[nnw - 3], *middle = nw[nnw - 2], *last = nw[nnw - 1];
		size_t lf = strlen(first), lm = strlen(middle);
		struct perlre *rl = rx(&letter, "[A-Za-z]", 0);
		struct strbuf nn = STRBUF_INIT;
		if ((lf == 1 && perlre_search(rl, first, 1, 0, NULL, 0)) ||
		    (lf == 2 && first[1] == '.') || lm == 1 || (lm == 2 && middle[1] == '.'))
			sb_addf(&nn, "%s %s %s", first, middle, last);
		else
			sb_addf(&nn, "%s %s", middle, last);
		free(name);
		name = sb_detach(&nn);
	}
	mnt_free_strv(nw, nnw);
	nl = strlen(name);
	if (nl >= 1 && (name[nl - 1] == ',' || name[nl - 1] == '.')) {
		name[--nl] = '\0';
	} else if (nl >= 2 && (name[nl - 2] == ',' || name[nl - 2] == '.') && name[nl - 1] == '"') {
		name[nl - 2] = '"';
		name[--nl] = '\0';
	}
	if (nl >= 1 && (name[0] == ',' || name[0] == '.')) {
		memmove(name, name + 1, nl);
		nl--;
	} else if (nl >= 2 && name[0] == '"' && (name[1] == ',' || name[1] == '.')) {
		memmove(name + 1, name + 2, nl - 1);
		nl--;
	}
	char *res = mnt_format_email(name, addr);
	free(name);
	free(addr);
	return res;
}

size_t mnt_file_emails(const char *text, size_t len, char ***out)
{
	static struct perlre *r;
	struct perlre *re = rx(&r,
	                       "[" NAMECHARS "\\\"\\' \\,\\.\\+-]*\\s*[\\,]*\\s*[\\(\\<\\{]{0,1}"
	                       "[A-Za-z0-9_\\.\\+-]+\\@[A-Za-z0-9\\.-]+\\.[A-Za-z0-9]+[\\)\\>\\}]{0,1}",
	                       0);
	char **v = NULL;
	size_t n = 0, alloc = 0, pos = 0, ov[2];
	while (pos <= len && perlre_search(re, text, len, pos, ov, 2)) {
		char *raw = xstrndup(text + ov[0], ov[1] - ov[0]);
		XGROW(v, n + 1, alloc);
		v[n++] = clean_one(raw);
		free(raw);
		pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	*out = v;
	return n;
}
