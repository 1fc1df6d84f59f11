/* RFC 5322 / MIME reading for request triage (see mail.h). */
#include "maintainers/mail.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "core/xalloc.h"

/* ---- decoders ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

void mail_decode_qp(const char *in, size_t len, char **out, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < len; i++) {
		if (in[i] != '=') {
			sb_addc(&sb, in[i]);
			continue;
		}
		/* soft line break: '=' then optional blanks then (CR)LF */
		size_t j = i + 1;
		while (j < len && (in[j] == ' ' || in[j] == '\t'))
			j++;
		if (j < len && (in[j] == '\n' || in[j] == '\r')) {
			if (in[j] == '\r' && j + 1 < len && in[j + 1] == '\n')
				j++;
			i = j;
			continue;
		}
		if (j >= len) {
			i = len;
			continue;
		}
		if (i + 2 < len && hexval((unsigned char)in[i + 1]) >= 0 &&
		    hexval((unsigned char)in[i + 2]) >= 0) {
			sb_addc(&sb, (char)(hexval((unsigned char)in[i + 1]) * 16 +
			                    hexval((unsigned char)in[i + 2])));
			i += 2;
		} else {
			sb_addc(&sb, '=');   /* malformed escape: keep it literally */
		}
	}
	*outlen = sb.len;
	*out = sb_detach(&sb);
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

void mail_decode_base64(const char *in, size_t len, char **out, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned acc = 0;
	int bits = 0;
	for (size_t i = 0; i < len; i++) {
		if (in[i] == '=')
			break;
		int v = b64val((unsigned char)in[i]);
		if (v < 0)
			continue;   /* line breaks, blanks and garbage are skipped */
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			sb_addc(&sb, (char)((acc >> bits) & 0xff));
		}
	}
	*outlen = sb.len;
	*out = sb_detach(&sb);
}

static void add_utf8(struct strbuf *sb, unsigned long cp)
{
	if (cp == 0 || cp > 0x10ffff) {
		sb_addc(sb, ' ');
	} else if (cp < 0x80) {
		sb_addc(sb, (char)cp);
	} else if (cp < 0x800) {
		sb_addc(sb, (char)(0xc0 | (cp >> 6)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sb_addc(sb, (char)(0xe0 | (cp >> 12)));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		sb_addc(sb, (char)(0xf0 | (cp >> 18)));
		sb_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

static bool tag_is(const char *name, size_t n, const char *what)
{
	return strlen(what) == n && strncasecmp(name, what, n) == 0;
}

/* Value of attribute attr inside a tag's text, or NULL. */
static char *tag_attr(const char *t, size_t n, const char *attr)
{
	size_t al = strlen(attr);
	for (size_t i = 0; i + al < n; i++) {
		if (strncasecmp(t + i, attr, al) != 0 || (i && isalnum((unsigned char)t[i - 1])))
			continue;
		size_t j = i + al;
		while (j < n && isspace((unsigned char)t[j]))
			j++;
		if (j >= n || t[j] != '=')
			continue;
		j++;
		while (j < n && isspace((unsigned char)t[j]))
			j++;
		if (j >= n)
			return NULL;
		char q = t[j];
		size_t s = j, e;
		if (q == '"' || q == '\'') {
			s = j + 1;
			e = s;
			while (e < n && t[e] != q)
				e++;
		} else {
			e = s;
			while (e < n && !isspace((unsigned char)t[e]) && t[e] != '>')
				e++;
		}
		return xstrndup(t + s, e - s);
	}
	return NULL;
}

void mail_html_to_text(const char *in, size_t len, char **out, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;
	while (i < len) {
		char c = in[i];
		if (c == '<') {
			const char *gt = memchr(in + i, '>', len - i);
			if (!gt) {
				sb_add(&sb, in + i, len - i);
				break;
			}
			const char *t = in + i + 1;
			size_t tl = (size_t)(gt - t);
			bool closing = tl && t[0] == '/';
			const char *nm = t + closing;
			size_t nl = 0;
			while (nl < tl - closing && (isalnum((unsigned char)nm[nl]) || nm[nl] == '!'))
				nl++;
			i = (size_t)(gt - in) + 1;
			if (!closing && (tag_is(nm, nl, "script") || tag_is(nm, nl, "style"))) {
				/* skip to the matching close tag */
				const char *endtag = tag_is(nm, nl, "script") ? "</script" : "</style";
				size_t el = strlen(endtag);
				size_t k = i;
				while (k + el <= len && strncasecmp(in + k, endtag, el) != 0)
					k++;
				const char *g2 = k + el <= len ? memchr(in + k, '>', len - k) : NULL;
				i = g2 ? (size_t)(g2 - in) + 1 : len;
				continue;
			}
			if (tag_is(nm, nl, "br") || tag_is(nm, nl, "p") || tag_is(nm, nl, "div") ||
			    tag_is(nm, nl, "tr") || tag_is(nm, nl, "li") || tag_is(nm, nl, "pre") ||
			    tag_is(nm, nl, "blockquote") || (nl == 2 && tolower((unsigned char)nm[0]) == 'h'))
				sb_addc(&sb, '\n');
			else if (!closing && tag_is(nm, nl, "a")) {
				char *href = tag_attr(t, tl, "href");
				if (href) {
					sb_addf(&sb, " %s ", href);
					free(href);
				}
			} else {
				sb_addc(&sb, ' ');
			}
			continue;
		}
		if (c == '&') {
			const char *semi = memchr(in + i, ';', len - i < 12 ? len - i : 12);
			if (semi) {
				const char *e = in + i + 1;
				size_t el = (size_t)(semi - e);
				if (el > 1 && e[0] == '#') {
					unsigned long cp = 0;
					bool ok = true;
					if (e[1] == 'x' || e[1] == 'X') {
						for (size_t k = 2; k < el && ok; k++) {
							int h = hexval((unsigned char)e[k]);
							ok = h >= 0;
							cp = cp * 16 + (unsigned long)(h < 0 ? 0 : h);
						}
						ok = ok && el > 2;
					} else {
						for (size_t k = 1; k < el && ok; k++) {
							ok = isdigit((unsigned char)e[k]);
							cp = cp * 10 + (unsigned long)(e[k] - '0');
						}
					}
					if (ok) {
						add_utf8(&sb, cp);
						i = (size_t)(semi - in) + 1;
						continue;
					}
				}
				static const struct {
					const char *n, *v;
				} ents[] = {{"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""},
				            {"apos", "'"}, {"nbsp", " "}};
				bool done = false;
				for (size_t k = 0; k < sizeof(ents) / sizeof(ents[0]) && !done; k++) {
					if (strlen(ents[k].n) == el && strncasecmp(e, ents[k].n, el) == 0) {
						sb_adds(&sb, ents[k].v);
						i = (size_t)(semi - in) + 1;
						done = true;
					}
				}
				if (done)
					continue;
			}
		}
		sb_addc(&sb, c);
		i++;
	}
	*outlen = sb.len;
	*out = sb_detach(&sb);
}

/* ---- headers ---- */

/* RFC 2047 encoded words (=?charset?B|Q?text?=), bytes kept as they are (no charset
 * conversion); blanks between two encoded words vanish. */
static char *decode_words(const char *v)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = v;
	bool last_encoded = false;
	while (*p) {
		if (p[0] == '=' && p[1] == '?') {
			const char *q1 = strchr(p + 2, '?');
			const char *q2 = q1 ? strchr(q1 + 1, '?') : NULL;
			const char *end = q2 ? strstr(q2 + 1, "?=") : NULL;
			if (q1 && q2 && end && q2 == q1 + 2) {
				char enc = (char)toupper((unsigned char)q1[1]);
				const char *txt = q2 + 1;
				size_t tl = (size_t)(end - txt);
				char *dec = NULL;
				size_t dl = 0;
				if (enc == 'B') {
					mail_decode_base64(txt, tl, &dec, &dl);
				} else if (enc == 'Q') {
					char *tmp = xstrndup(txt, tl);
					for (char *c = tmp; *c; c++)
						if (*c == '_')
							*c = ' ';
					mail_decode_qp(tmp, tl, &dec, &dl);
					free(tmp);
				}
				if (dec) {
					/* drop the blanks between two encoded words */
					if (last_encoded) {
						while (sb.len && (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == '\t'))
							sb.len--;
						sb.buf[sb.len] = '\0';
					}
					for (size_t k = 0; k < dl; k++)
						sb_addc(&sb, dec[k] == '\0' || dec[k] == '\n' || dec[k] == '\r' ? ' ' : dec[k]);
					free(dec);
					p = end + 2;
					last_encoded = true;
					continue;
				}
			}
		}
		if (*p != ' ' && *p != '\t')
			last_encoded = false;
		sb_addc(&sb, *p++);
	}
	return sb_detach(&sb);
}

static bool valid_field_name(const char *s, size_t n)
{
	if (n == 0 || n > 200)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 32 || (unsigned char)s[i] >= 127 || s[i] == ':')
			return false;
	return true;
}

struct hdrs {
	struct mail_header *h;
	size_t n, alloc;
};

static void hdrs_free(struct hdrs *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->h[i].name);
		free(h->h[i].value);
	}
	free(h->h);
	memset(h, 0, sizeof(*h));
}

static const char *hdrs_get(const struct hdrs *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcasecmp(h->h[i].name, name) == 0)
			return h->h[i].value;
	return NULL;
}

/* Parse a header block from [p, end); returns the body start. *bad counts skipped lines. */
static const char *parse_headers(const char *p, const char *end, struct hdrs *h, size_t *bad,
                                 bool *overflow)
{
	struct strbuf cur = STRBUF_INIT;
	char *curname = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *next = nl ? nl + 1 : end;
		size_t ll = (size_t)(le - p);
		if (ll && p[ll - 1] == '\r')
			ll--;
		if (ll == 0) {
			p = next;
			break;
		}
		if (p[0] == ' ' || p[0] == '\t') {
			if (curname)
				sb_add(&cur, p, ll);
			else
				(*bad)++;
		} else {
			if (curname) {
				XGROW(h->h, h->n + 1, h->alloc);
				h->h[h->n].name = curname;
				h->h[h->n].value = NULL;
				char *raw = sb_detach(&cur);
				for (char *c = raw; *c; c++)
					if ((unsigned char)*c < 32 && *c != '\t')
						*c = ' ';
				h->h[h->n].value = decode_words(raw);
				free(raw);
				h->n++;
				curname = NULL;
			}
			const char *colon = memchr(p, ':', ll);
			if (colon && valid_field_name(p, (size_t)(colon - p))) {
				if (h->n >= MAIL_MAX_HEADERS) {
					*overflow = true;
				} else {
					curname = xstrndup(p, (size_t)(colon - p));
					const char *v = colon + 1;
					while (v < p + ll && (*v == ' ' || *v == '\t'))
						v++;
					sb_reset(&cur);
					sb_add(&cur, v, (size_t)(p + ll - v));
				}
			} else {
				(*bad)++;
			}
		}
		p = next;
	}
	if (curname) {
		XGROW(h->h, h->n + 1, h->alloc);
		h->h[h->n].name = curname;
		char *raw = sb_detach(&cur);
		for (char *c = raw; *c; c++)
			if ((unsigned char)*c < 32 && *c != '\t')
				*c = ' ';
		h->h[h->n].value = decode_words(raw);
		free(raw);
		h->n++;
	}
	sb_release(&cur);
	return p;
}

/* Content-Type: "type/sub; a=b; boundary="x"" -> lower-case type, and one parameter. */
static char *ct_type(const char *v)
{
	if (!v)
		return xstrdup("text/plain");
	size_t n = strcspn(v, ";");
	while (n && isspace((unsigned char)v[n - 1]))
		n--;
	char *t = xstrndup(v, n);
	for (char *c = t; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return t;
}

static char *ct_param(const char *v, const char *name)
{
	if (!v)
		return NULL;
	size_t nl = strlen(name);
	const char *p = strchr(v, ';');
	while (p) {
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncasecmp(p, name, nl) == 0) {
			const char *q = p + nl;
			while (*q == ' ')
				q++;
			if (*q == '=') {
				q++;
				while (*q == ' ')
					q++;
				if (*q == '"') {
					const char *e = strchr(q + 1, '"');
					return e ? xstrndup(q + 1, (size_t)(e - q - 1)) : xstrdup(q + 1);
				}
				return xstrndup(q, strcspn(q, "; \t"));
			}
		}
		p = strchr(p, ';');
	}
	return NULL;
}

struct collect {
	struct strbuf plain, html;
	size_t parts;
};

static void parse_entity(const struct hdrs *h, const char *body, size_t blen, int depth,
                         struct collect *c);

static void parse_multipart(const char *boundary, const char *body, size_t blen, int depth,
                            struct collect *c)
{
	size_t bl = strlen(boundary);
	const char *p = body, *end = body + blen;
	const char *part = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *next = nl ? nl + 1 : end;
		if ((size_t)(le - p) >= bl + 2 && p[0] == '-' && p[1] == '-' &&
		    memcmp(p + 2, boundary, bl) == 0) {
			bool closing = (size_t)(le - p) >= bl + 4 && p[bl + 2] == '-' && p[bl + 3] == '-';
			if (part) {
				const char *pe = p;
				if (pe > part && pe[-1] == '\n')
					pe--;
				if (pe > part && pe[-1] == '\r')
					pe--;
				const char *q = part;
				struct hdrs ph = {0};
				size_t bad = 0;
				bool of = false;
				const char *pb = parse_headers(q, pe, &ph, &bad, &of);
				/* a part without a blank line after its headers has no headers */
				if (pb >= pe && ph.n == 0)
					pb = q;
				parse_entity(&ph, pb, (size_t)(pe - pb), depth + 1, c);
				hdrs_free(&ph);
				if (c->parts >= MAIL_MAX_PARTS)
					return;
			}
			if (closing)
				return;
			part = next;
		}
		p = next;
	}
	/* unterminated last part: still use it */
	if (part && part < end) {
		struct hdrs ph = {0};
		size_t bad = 0;
		bool of = false;
		const char *pb = parse_headers(part, end, &ph, &bad, &of);
		parse_entity(&ph, pb, (size_t)(end - pb), depth + 1, c);
		hdrs_free(&ph);
	}
}

static void parse_entity(const struct hdrs *h, const char *body, size_t blen, int depth,
                         struct collect *c)
{
	if (c->parts >= MAIL_MAX_PARTS)
		return;
	const char *ctv = hdrs_get(h, "Content-Type");
	char *type = ct_type(ctv);
	if (strncmp(type, "multipart/", 10) == 0 && depth < MAIL_MAX_DEPTH) {
		char *b = ct_param(ctv, "boundary");
		if (b && *b && strlen(b) <= 200) {
			parse_multipart(b, body, blen, depth, c);
			free(b);
			free(type);
			return;
		}
		free(b);
	}
	c->parts++;
	bool is_html = strcmp(type, "text/html") == 0;
	bool is_text = strncmp(type, "text/", 5) == 0 || strcmp(type, "message/rfc822") == 0;
	const char *disp = hdrs_get(h, "Content-Disposition");
	bool attachment = disp && strncasecmp(disp, "attachment", 10) == 0 &&
	                  strcmp(type, "text/x-patch") != 0 && strcmp(type, "text/x-diff") != 0;
	free(type);
	if (!is_text || attachment)
		return;
	const char *cte = hdrs_get(h, "Content-Transfer-Encoding");
	char *dec;
	size_t dl;
	if (cte && strncasecmp(cte, "quoted-printable", 16) == 0)
		mail_decode_qp(body, blen, &dec, &dl);
	else if (cte && strncasecmp(cte, "base64", 6) == 0)
		mail_decode_base64(body, blen, &dec, &dl);
	else {
		dec = xmalloc(blen + 1);   /* not xstrndup: the body may hold NUL bytes */
		memcpy(dec, body, blen);
		dec[blen] = '\0';
		dl = blen;
	}
	if (is_html) {
		char *t;
		size_t tlen;
		mail_html_to_text(dec, dl, &t, &tlen);
		sb_add(&c->html, t, tlen);
		sb_addc(&c->html, '\n');
		free(t);
	} else {
		sb_add(&c->plain, dec, dl);
		sb_addc(&c->plain, '\n');
	}
	free(dec);
}

int mail_parse(const char *data, size_t len, struct mail *out, struct kcve_err *err)
{
	memset(out, 0, sizeof(*out));
	if (len > MAIL_MAX_SIZE)
		return kcve_err_set(err, KCVE_E_PARSE, "mail larger than %u MiB",
		                    (unsigned)(MAIL_MAX_SIZE >> 20));
	const char *p = data, *end = data + len;
	/* an mbox "From " separator line before the headers */
	if (len >= 5 && memcmp(p, "From ", 5) == 0) {
		const char *nl = memchr(p, '\n', len);
		p = nl ? nl + 1 : end;
	}
	struct hdrs h = {0};
	size_t bad = 0;
	bool overflow = false;
	const char *body = parse_headers(p, end, &h, &bad, &overflow);
	if (h.n == 0) {
		hdrs_free(&h);
		return kcve_err_set(err, KCVE_E_PARSE, "not a mail: no header lines (\"Name: value\")");
	}
	if (overflow) {
		hdrs_free(&h);
		return kcve_err_set(err, KCVE_E_PARSE, "more than %d header lines", MAIL_MAX_HEADERS);
	}
	struct collect c = {STRBUF_INIT, STRBUF_INIT, 0};
	parse_entity(&h, body, (size_t)(end - body), 0, &c);
	out->h = h.h;
	out->nh = h.n;
	out->alloc = h.alloc;
	out->nparts = c.parts;
	struct strbuf *use = c.plain.len ? &c.plain : &c.html;
	out->html = !c.plain.len && c.html.len;
	for (size_t i = 0; i < use->len; i++)
		if (use->buf[i] == '\0')
			use->buf[i] = ' ';
	out->text_len = use->len;
	out->text = sb_detach(use);
	sb_release(&c.plain);
	sb_release(&c.html);
	return 0;
}

void mail_release(struct mail *m)
{
	for (size_t i = 0; i < m->nh; i++) {
		free(m->h[i].name);
		free(m->h[i].value);
	}
	free(m->h);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

const char *mail_get(const struct mail *m, const char *name)
{
	for (size_t i = 0; i < m->nh; i++)
		if (strcasecmp(m->h[i].name, name) == 0)
			return m->h[i].value;
	return NULL;
}
