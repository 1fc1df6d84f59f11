#include "review/votefile.h"

#include <ctype.h>
#include <string.h>

#include "core/fileio.h"
#include "core/sha.h"
#include "core/xalloc.h"

bool votefile_split_name(const char *base, struct votefile *vf)
{
	const char *dash = strrchr(base, '-');
	if (!dash || dash == base || !dash[1])
		return false;
	vf->reviewer = xstrdup(dash + 1);
	size_t taglen = (size_t)(dash - base);
	static const char *const kinds[] = {"-annotated", ".review-fromfile", "-fromfile"};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t k = strlen(kinds[i]);
		if (taglen > k && strncmp(base + taglen - k, kinds[i], k) == 0) {
			if (i == 0)
				vf->annotated = true;
			else
				vf->fromfile = true;
			taglen -= k;
			break;
		}
	}
	if (strncmp(base, "fromfile-", 9) == 0) {
		vf->fromfile = true;
		base += 9;
		taglen -= 9;
	}
	vf->tag = xstrndup(base, taglen);
	return true;
}

/* Trim and unwrap ("subject") quoting from a vote's subject. */
static char *clean_subject(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 4 && s[0] == '(' && s[1] == '"' && s[n - 1] == ')' && s[n - 2] == '"') {
		s += 2;
		n -= 4;
	}
	return xstrndup(s, n);
}

static void add_annotation(struct votefile *vf, const char *s, size_t n)
{
	if (vf->n == 0)
		return;
	struct vote *v = &vf->v[vf->n - 1];
	struct strbuf sb = STRBUF_INIT;
	if (v->annotation) {
		sb_adds(&sb, v->annotation);
		sb_addc(&sb, '\n');
		free(v->annotation);
	}
	sb_add(&sb, s, n);
	v->annotation = sb_detach(&sb);
}

void votefile_parse_text(const char *text, size_t len, struct votefile *vf)
{
	const char *p = text, *end = text + len;
	bool in_annotation = false;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
		const char *next = eol ? eol + 1 : end;
		size_t hex = 0;
		while (hex < n && is_hex_char((unsigned char)p[hex]))
			hex++;
		if (hex >= 7 && hex <= 40 && (hex == n || p[hex] == ' ' || p[hex] == '\t')) {
			XGROW(vf->v, vf->n + 1, vf->alloc);
			struct vote *v = &vf->v[vf->n++];
			memset(v, 0, sizeof(*v));
			memcpy(v->sha, p, hex);
			v->sha[hex] = '\0';
			sha_lower(v->sha);
			const char *subj = p + hex;
			size_t sn = n - hex;
			static const char autotag[] = "[auto: cve already created]";
			const char *a = sn >= sizeof(autotag) - 1 ? memmem(subj, sn, autotag, sizeof(autotag) - 1) : NULL;
			if (a) {
				v->auto_cve = true;
				sn = (size_t)(a - subj);
			}
			v->subject = clean_subject(subj, sn);
			in_annotation = false;
		} else if (n >= 3 && p[0] == '-' && p[1] == ' ' && p[2] == '[') {
			add_annotation(vf, p, n);
			in_annotation = vf->n > 0;
		} else if (in_annotation && (n == 0 || p[0] == ' ' || p[0] == '\t')) {
			add_annotation(vf, p, n);
		} else if (n > 0) {
			vf->notes++;
			in_annotation = false;
		}
		p = next;
	}
}

int votefile_load(const char *path, struct votefile *vf)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		sb_release(&sb);
		return -1;
	}
	votefile_parse_text(sb_str(&sb), sb.len, vf);
	sb_release(&sb);
	return 0;
}

void votefile_release(struct votefile *vf)
{
	for (size_t i = 0; i < vf->n; i++) {
		free(vf->v[i].subject);
		free(vf->v[i].annotation);
	}
	free(vf->v);
	free(vf->tag);
	free(vf->reviewer);
	memset(vf, 0, sizeof(*vf));
}

void votefile_format_vote(struct strbuf *sb, const char *sha, const char *subject,
			  const char *suffix)
{
	sb_addf(sb, "%.12s %s%s%s\n", sha, subject, suffix && *suffix ? " " : "",
		suffix ? suffix : "");
}
