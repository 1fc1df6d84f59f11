/* get_maintainer.pl's address list (see getmaint.h), step by step in the script's order. */
#include "maintainers/getmaint.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "maintainers/email.h"
#include "maintainers/perlre.h"

static char *lc(const char *s)
{
	char *r = xstrdup(s);
	for (char *p = r; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

struct gm_state {
	const struct maintainers *m;
	const struct gm_opts *o;
	struct gm_result email_to, list_to;
	struct strset names, addrs, lists;   /* %email_hash_name, %email_hash_address, %hash_list_to */
};

static void push(struct gm_result *r, char *text, char kind)
{
	XGROW(r->v, r->n + 1, r->alloc);
	r->v[r->n].text = text;
	r->v[r->n].kind = kind;
	r->n++;
}

/* push_email_address(): dedup by (lower-cased) name or address. */
static void push_email_address(struct gm_state *st, const char *line, char kind)
{
	char *name, *addr;
	mnt_parse_email(line, &name, &addr);
	if (*addr) {
		char *ln = lc(name), *la = lc(addr);
		bool inuse = (*name && strset_contains(&st->names, ln)) || strset_contains(&st->addrs, la);
		if (!inuse) {
			push(&st->email_to, mnt_format_email(name, addr), kind);
			if (*name)
				strset_add(&st->names, ln);
			strset_add(&st->addrs, la);
		}
		free(ln);
		free(la);
	}
	free(name);
	free(addr);
}

static void add_categories(struct gm_state *st, size_t start, size_t end)
{
	static struct perlre *rl, *rsub;
	char eb[100];
	if (!rl)
		rl = perlre_compile("([^\\s]+)\\s+(.*)$", 0, eb, sizeof(eb));
	if (!rsub)
		rsub = perlre_compile("subscribers-only", 0, eb, sizeof(eb));
	const struct maintainers *m = st->m;
	for (size_t i = start + 1; i < end; i++) {
		const struct mnt_line *l = &m->tv[i];
		if (l->tag == 'L') {
			if (st->o->no_lists)
				continue;
			char *la = xstrdup(l->value);
			const char *additional = "";
			size_t ov[6];
			if (perlre_search(rl, l->value, strlen(l->value), 0, ov, 6)) {
				free(la);
				la = xstrndup(l->value + ov[2], ov[3] - ov[2]);
				additional = l->value + ov[4];
			}
			if (!perlre_search(rsub, additional, strlen(additional), 0, NULL, 0)) {
				char *key = lc(la);
				if (!strset_contains(&st->lists, key)) {
					strset_add(&st->lists, key);
					push(&st->list_to, la, 'L');
					la = NULL;
				}
				free(key);
			}
			free(la);
		} else if (l->tag == 'M' || l->tag == 'R') {
			char **v;
			size_t n = mnt_split_addresses(l->value, &v);
			for (size_t k = 0; k < n; k++)
				push_email_address(st, v[k], l->tag);
			mnt_free_strv(v, n);
		}
	}
}

static bool read_regular(const char *root, const char *file, struct strbuf *sb)
{
	if (!root)
		return false;
	char *p = path_join(root, file);
	struct stat stt;
	bool ok = stat(p, &stt) == 0 && S_ISREG(stt.st_mode) && read_file(p, sb) == 0;
	free(p);
	return ok;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* m@\bMAINTAINERS$@ */
static bool is_maintainers_file(const char *f)
{
	if (!ends_with(f, "MAINTAINERS"))
		return false;
	size_t a = strlen(f) - 11;
	return a == 0 || !(isalnum((unsigned char)f[a - 1]) || f[a - 1] == '_');
}

/* deduplicate_email() over both lists with shared name/address memories. */
static void deduplicate(struct gm_state *st)
{
	/* lower-cased name / address -> formatted "name\naddress" (first seen wins) */
	struct strmap dn = STRMAP_INIT, da = STRMAP_INIT;
	struct gm_result *lists[2] = {&st->email_to, &st->list_to};
	for (int li = 0; li < 2; li++) {
		for (size_t i = 0; i < lists[li]->n; i++) {
			char *name, *addr;
			mnt_parse_email(lists[li]->v[i].text, &name, &addr);
			char *e1 = mnt_format_email(name, addr);
			char *e2 = mailmap_email(st->m->mailmap, e1);
			free(name), free(addr), free(e1);
			mnt_parse_email(e2, &name, &addr);
			free(e2);
			char *ln = lc(name), *la = lc(addr);
			const char *hit = *name ? strmap_get(&dn, ln) : NULL;
			if (!hit)
				hit = strmap_get(&da, la);
			if (hit) {
				const char *nl = strchr(hit, '\n');
				free(name), free(addr);
				name = xstrndup(hit, (size_t)(nl - hit));
				addr = xstrdup(nl + 1);
			} else {
				struct strbuf pair = STRBUF_INIT;
				sb_addf(&pair, "%s\n%s", name, addr);
				if (!strmap_contains(&dn, ln))
					strmap_put(&dn, ln, xstrdup(pair.buf));
				if (!strmap_contains(&da, la))
					strmap_put(&da, la, xstrdup(pair.buf));
				sb_release(&pair);
			}
			char *f = mnt_format_email(name, addr);
			char *g = mailmap_email(st->m->mailmap, f);
			free(f), free(name), free(addr), free(ln), free(la);
			free(lists[li]->v[i].text);
			lists[li]->v[i].text = g;
		}
	}
	strmap_free(&dn, free);
	strmap_free(&da, free);
}

/* Keyword sections: sort_and_uniq of the K: line indices (as strings), then add each section,
 * walking out from the K: line itself as add_categories($line) does. */
static void add_keyword_sections(struct gm_state *st, size_t *kw, size_t nkw)
{
	if (!nkw)
		return;
	qsort(kw, nkw, sizeof(*kw), mnt_cmp_index_str);
	for (size_t i = 0; i < nkw; i++) {
		if (i && kw[i] == kw[i - 1])
			continue;
		if (st->m->section_of[kw[i]] == SIZE_MAX)
			continue;
		/* add_categories($line) walks out from the K: line itself */
		size_t start = kw[i], end = kw[i];
		while (start > 0 && st->m->tv[start].tag)
			start--;
		while (end < st->m->ntv && st->m->tv[end].tag)
			end++;
		add_categories(st, start, end);
	}
}

/* Linus is only added with --git-chief-penguins; otherwise removed by regex. */
static void drop_chief_penguin(struct gm_result *to)
{
	static struct perlre *peng;
	char eb[100];
	if (!peng)
		peng = perlre_compile("Linus Torvalds <torvalds@linux-foundation.org>", 0, eb,
		                      sizeof(eb));
	size_t w = 0;
	for (size_t i = 0; i < to->n; i++) {
		const char *t = to->v[i].text;
		if (perlre_search(peng, t, strlen(t), 0, NULL, 0))
			free(to->v[i].text);
		else
			to->v[w++] = to->v[i];
	}
	to->n = w;
}

void gm_run(const struct maintainers *m, const char *const *files, size_t nfiles,
            const struct gm_opts *o, struct gm_result *out)
{
	struct gm_state st = {.m = m, .o = o};
	size_t *kw = NULL, nkw = 0, akw = 0;
	/* The argument loop: K: keywords over each readable file's text. */
	for (size_t f = 0; f < nfiles && o->keywords; f++) {
		if (strcmp(files[f], "MAINTAINERS") == 0)
			continue;
		struct strbuf text = STRBUF_INIT;
		if (read_regular(o->root, files[f], &text)) {
			size_t *v, n = maintainers_keywords(m, text.buf ? text.buf : "", text.len, &v);
			for (size_t i = 0; i < n; i++) {
				XGROW(kw, nkw + 1, akw);
				kw[nkw++] = v[i];
			}
			free(v);
		}
		sb_release(&text);
	}
	char **fe = NULL;
	size_t nfe = 0, afe = 0;
	for (size_t f = 0; f < nfiles; f++) {
		struct mnt_hit *hits;
		size_t n = maintainers_match(m, files[f], &hits);
		for (size_t i = 0; i < n; i++)
			add_categories(&st, m->sec[hits[i].section].start, m->sec[hits[i].section].end);
		free(hits);
		/* maintainers_in_file(): addresses written in .yaml files */
		if (!is_maintainers_file(files[f]) && ends_with(files[f], ".yaml")) {
			struct strbuf text = STRBUF_INIT;
			if (read_regular(o->root, files[f], &text)) {
				char **v;
				size_t k = mnt_file_emails(text.buf ? text.buf : "", text.len, &v);
				for (size_t i = 0; i < k; i++) {
					XGROW(fe, nfe + 1, afe);
					fe[nfe++] = v[i];
				}
				free(v);
			}
			sb_release(&text);
		}
	}
	add_keyword_sections(&st, kw, nkw);
	free(kw);
	deduplicate(&st);
	drop_chief_penguin(&st.email_to);
	for (size_t i = 0; i < nfe; i++) {
		char *e = mailmap_email(m->mailmap, fe[i]);
		char *name, *addr;
		mnt_parse_email(e, &name, &addr);
		char *t = mnt_format_email(name, addr);
		push_email_address(&st, t, 'F');
		free(t), free(e), free(name), free(addr);
	}
	mnt_free_strv(fe, nfe);
	/* merge_email(): unique printed strings, people first, then lists. */
	struct strset seen = STRSET_INIT;
	struct gm_result *lists[2] = {&st.email_to, &st.list_to};
	for (int li = 0; li < 2; li++) {
		for (size_t i = 0; i < lists[li]->n; i++) {
			struct gm_addr *a = &lists[li]->v[i];
			if (strset_contains(&seen, a->text)) {
				free(a->text);
				continue;
			}
			strset_add(&seen, a->text);
			push(out, a->text, a->kind);
		}
		free(lists[li]->v);
	}
	strset_clear(&seen);
	strset_clear(&st.names);
	strset_clear(&st.addrs);
	strset_clear(&st.lists);
}

void gm_result_release(struct gm_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].text);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

char *mnt_file_arg(const char *root, const char *arg)
{
	char *c = mnt_canonpath(arg);
	/* $file =~ s/^\Q${cur_path}\E//: absolute paths inside the tree become relative */
	const char *rel = c;
	char rootabs[PATH_MAX], cwd[PATH_MAX];
	if (c[0] == '/' && root && realpath(root, rootabs)) {
		size_t n = strlen(rootabs);
		if (strncmp(c, rootabs, n) == 0 && c[n] == '/')
			rel = c + n + 1;
	} else if (c[0] == '/' && getcwd(cwd, sizeof(cwd))) {
		size_t n = strlen(cwd);
		if (strncmp(c, cwd, n) == 0 && c[n] == '/')
			rel = c + n + 1;
	}
	char *r = xstrdup(rel);
	free(c);
	if (root && strcmp(r, ".") != 0) {
		char *p = path_join(root, r);
		if (is_dir(p) && r[strlen(r) - 1] != '/') {
			char *t = xmalloc(strlen(r) + 2);
			sprintf(t, "%s/", r);
			free(r);
			r = t;
		}
		free(p);
	}
	return r;
}
