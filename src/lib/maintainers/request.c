/* Triage of mails to the CVE alias (see request.h). */
#include "maintainers/request.h"

#include <ctype.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/sha.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "core/kjson.h"
#include "core/text.h"

const char *request_kind_name(enum request_kind k)
{
	static const char *n[] = {"queue", "already-assigned", "not-released", "reserve",
	                          "security-referral", "other"};
	return (unsigned)k < sizeof(n) / sizeof(n[0]) ? n[k] : "other";
}

void request_triage_release(struct request_triage *t)
{
	free(t->commits);
	memset(t, 0, sizeof(*t));
}

static bool word_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Does the text just before pos (same line) end with "commit" (+ blanks / "id" / ':')? */
static bool after_commit_word(const char *text, size_t pos)
{
	size_t i = pos;
	size_t guard = 0;
	while (i > 0 && guard < 16 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == ':' ||
	                               text[i - 1] == '=' || text[i - 1] == '#')) {
		i--;
		guard++;
	}
	if (i >= 2 && strncasecmp(text + i - 2, "id", 2) == 0) {
		i -= 2;
		while (i > 0 && text[i - 1] == ' ')
			i--;
	}
	return i >= 6 && strncasecmp(text + i - 6, "commit", 6) == 0;
}

static bool line_is_fixes_tag(const char *text, size_t pos)
{
	size_t ls = pos;
	while (ls > 0 && text[ls - 1] != '\n')
		ls--;
	while (text[ls] == ' ' || text[ls] == '\t' || text[ls] == '>')
		ls++;
	return strncasecmp(text + ls, "fixes:", 6) == 0;
}

static bool in_commit_link(const char *text, size_t pos)
{
	/* look back over the URL this hex word ends */
	size_t s = pos;
	while (s > 0 && !isspace((unsigned char)text[s - 1]) && text[s - 1] != '<' &&
	       text[s - 1] != '"' && text[s - 1] != '(' && pos - s < 300)
		s--;
	size_t n = pos - s;
	char *url = xstrndup(text + s, n);
	bool r = false;
	{
		if (strstr(url, "git.kernel.org/") &&
		    (strstr(url, "/c/") || strstr(url, "commit/?id=") || strstr(url, "commit?id=") ||
		     strstr(url, "/commit/") || strstr(url, "&id=")))
			r = true;
		else if (strstr(url, "github.com/") && strstr(url, "/commit/"))
			r = true;
		else if (strstr(url, "kernel.dance/"))
			r = true;
	}
	free(url);
	return r;
}

size_t request_find_shas(const char *text, char (*out)[41], size_t max)
{
	size_t n = 0;
	size_t len = strlen(text);
	for (size_t i = 0; i < len && n < max;) {
		if (!isxdigit((unsigned char)text[i]) || (i > 0 && word_char((unsigned char)text[i - 1]))) {
			i++;
			continue;
		}
		size_t run = hex_run(text + i);
		if (run >= 12 && run <= 40 && !word_char((unsigned char)text[i + run]) &&
		    !(i >= 2 && text[i - 2] == '0' && (text[i - 1] == 'x' || text[i - 1] == 'X'))) {
			bool link = in_commit_link(text, i);
			bool ok = link || (!line_is_fixes_tag(text, i) &&
			                   (run == 40 || after_commit_word(text, i)));
			/* a 40-hex word of only digits is a number, not an id */
			bool has_letter = false, has_digit = false;
			for (size_t k = 0; k < run; k++) {
				has_letter |= isalpha((unsigned char)text[i + k]) != 0;
				has_digit |= isdigit((unsigned char)text[i + k]) != 0;
			}
			if (ok && (has_letter || link) && has_digit) {
				char w[41];
				memcpy(w, text + i, run);
				w[run] = '\0';
				sha_lower(w);
				bool dup = false;
				for (size_t k = 0; k < n && !dup; k++)
					dup = strcmp(out[k], w) == 0;
				if (!dup)
					memcpy(out[n++], w, run + 1);
			}
		}
		i += run ? run : 1;
	}
	return n;
}

static bool has_any(const char *lc, const char *const *words)
{
	for (; *words; words++)
		if (strstr(lc, *words))
			return true;
	return false;
}

void request_classify(const struct mail *m, const struct request_oracle *o,
                      struct request_triage *t)
{
	memset(t, 0, sizeof(*t));
	const char *subject = mail_get(m, "Subject");
	struct strbuf all = STRBUF_INIT;
	sb_addf(&all, "%s\n%s", subject ? subject : "", m->text ? m->text : "");
	char found[64][41];
	size_t n = request_find_shas(all.buf, found, 64);
	if (n) {
		t->commits = xcalloc(n, sizeof(*t->commits));
		size_t with_cve = 0;
		for (size_t i = 0; i < n; i++) {
			struct request_commit *c = &t->commits[t->ncommits];
			memset(c, 0, sizeof(*c));
			memcpy(c->text, found[i], sizeof(c->text));
			c->text[40] = 0;
			if (o && o->resolve && o->resolve(o->ctx, found[i], c->sha) == 0) {
				c->release = o->release ? o->release(o->ctx, c->sha) : NULL;
				if (o->find_cve && o->find_cve(o->ctx, c->sha, c->cve) != 0)
					c->cve[0] = '\0';
			} else {
				c->sha[0] = '\0';
			}
			/* a link and a short "commit <id>" often name the same fix: keep it once */
			bool dup = false;
			for (size_t k = 0; k < t->ncommits && c->sha[0] && !dup; k++)
				dup = strcmp(t->commits[k].sha, c->sha) == 0;
			if (dup)
				continue;
			t->ncommits++;
			if (c->cve[0])
				with_cve++;
			else if (c->sha[0] && c->release)
				t->nqueue++;
		}
		t->kind = t->nqueue ? REQ_QUEUE : with_cve ? REQ_ALREADY : REQ_UNRELEASED;
		sb_release(&all);
		return;
	}
	for (size_t i = 0; i < all.len; i++)
		all.buf[i] = (char)tolower((unsigned char)all.buf[i]);
	static const char *const idwords[] = {"reserve", "cve id", "cve number", "cve identifier",
	                                      "cve-id", "an identifier", "assign a cve", "request a cve",
	                                      "requesting a cve", NULL};
	static const char *const unfixed[] = {"reserve", "before", "unfixed", "not yet fixed",
	                                      "not fixed yet", "no fix", "embargo", "not yet public",
	                                      "disclosure", NULL};
	static const char *const secwords[] = {
		"vulnerab", "exploit", "use-after-free", "use after free", "out-of-bounds",
		"out of bounds", "overflow", "kasan", "privilege escalation", "proof of concept",
		"poc", "security bug", "security issue", "security flaw", "null pointer dereference",
		"null-ptr-deref", "arbitrary code", "crash", "denial of service", "memory corruption",
		"double free", "double-free", "race condition", NULL};
	if (has_any(all.buf, idwords) && has_any(all.buf, unfixed))
		t->kind = REQ_RESERVE;
	else if (has_any(all.buf, secwords))
		t->kind = REQ_SECURITY;
	else
		t->kind = REQ_OTHER;
	sb_release(&all);
}

/* ---- reply ---- */


/* The valid <msg-id> tokens of a header value, space-separated (at most max). */
static void msgids(const char *v, struct strbuf *out, int max)
{
	int n = 0;
	const char *p = v;
	while (p && *p && n < max) {
		const char *lt = strchr(p, '<');
		if (!lt)
			break;
		const char *gt = strchr(lt + 1, '>');
		if (!gt)
			break;
		bool ok = gt - lt > 3 && gt - lt < 250 && memchr(lt + 1, '@', (size_t)(gt - lt - 1));
		for (const char *c = lt + 1; c < gt && ok; c++)
			ok = *c > 32 && *c < 127 && *c != '<' && *c != '"' && *c != '\\';
		if (ok) {
			sb_addf(out, "%s%.*s", out->len ? " " : "", (int)(gt - lt + 1), lt);
			n++;
		}
		p = gt + 1;
	}
}

/* A plain addr-spec from a From:/Reply-To: value, or NULL if none looks valid. */
static char *sender_address(const char *v)
{
	if (!v)
		return NULL;
	const char *s = v, *e = v + strlen(v);
	const char *lt = strrchr(v, '<');
	if (lt) {
		const char *gt = strchr(lt, '>');
		if (!gt)
			return NULL;
		s = lt + 1;
		e = gt;
	}
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (e - s < 3 || e - s > 254)
		return NULL;
	int at = 0;
	for (const char *c = s; c < e; c++) {
		if (*c == '@')
			at++;
		else if (!(isalnum((unsigned char)*c) || strchr("._%+-=~", *c)))
			return NULL;
	}
	if (at != 1 || *s == '@' || e[-1] == '@')
		return NULL;
	return xstrndup(s, (size_t)(e - s));
}

static void clean_line(const char *v, struct strbuf *out, size_t max)
{
	size_t i = 0;
	for (; v && v[i] && out->len < max; i++) {
		unsigned char c = (unsigned char)v[i];
		sb_addc(out, c < 32 || c == 127 ? ' ' : (char)c);
	}
	if (v && v[i]) { /* cut: between characters only (core/text.h) */
		text_cut_partial(out->buf, out->len);
		sb_setlen(out, strlen(out->buf));
	}
}

void request_reply(const struct mail *m, const struct request_triage *t, const char *from,
                   const char *date, struct strbuf *out)
{
	const char *mid = mail_get(m, "Message-Id");
	struct strbuf id = STRBUF_INIT, refs = STRBUF_INIT, subj = STRBUF_INIT;
	if (mid)
		msgids(mid, &id, 1);
	msgids(mail_get(m, "References"), &refs, 30);
	if (id.len)
		sb_addf(&refs, "%s%s", refs.len ? " " : "", id.buf);
	const char *s = mail_get(m, "Subject");
	if (!s || strncasecmp(s, "re:", 3) != 0)
		sb_adds(&subj, "Re: ");
	clean_line(s && *s ? s : "your mail to the CVE team", &subj, 200);
	char *to = sender_address(mail_get(m, "Reply-To"));
	if (!to)
		to = sender_address(mail_get(m, "From"));
	const char *key = id.len ? id.buf : sb_str(&subj);
	uint64_t h = fnv1a64(FNV1A64_INIT_OLD, key, strlen(key));
	h = fnv1a64(h, request_kind_name(t->kind), strlen(request_kind_name(t->kind)));

	sb_addf(out, "From kcve Thu Jan  1 00:00:00 1970\n");
	sb_addf(out, "From: %s\n", from);
	sb_addf(out, "To: %s\n", to ? to : "undisclosed-recipients:;");
	sb_addf(out, "Subject: %s\n", subj.buf);
	sb_addf(out, "Date: %s\n", date);
	sb_addf(out, "Message-Id: <kcve-request-%016llx@kernel.org>\n", (unsigned long long)h);
	if (id.len)
		sb_addf(out, "In-Reply-To: %s\n", id.buf);
	if (refs.len)
		sb_addf(out, "References: %s\n", refs.buf);
	sb_addf(out, "X-kcve-triage: %s\n", request_kind_name(t->kind));
	sb_adds(out, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
	             "Content-Transfer-Encoding: 8bit\n\n");
	sb_adds(out, "Hello,\n\n");
	switch (t->kind) {
	case REQ_QUEUE:
		sb_adds(out, "Thank you for the request. These fixes are in a released kernel and have\n"
		             "no CVE yet; they are now queued for review by the CVE team:\n\n");
		for (size_t i = 0; i < t->ncommits; i++) {
			const struct request_commit *c = &t->commits[i];
			if (c->sha[0] && c->release && !c->cve[0])
				sb_addf(out, "  %.12s (in %s)\n", c->sha, c->release);
		}
		sb_adds(out, "\nAt least two members of the team review every proposed fix; you will\n"
		             "see the result on the linux-cve-announce list.\n");
		break;
	case REQ_ALREADY:
		sb_adds(out, "The fixes you named already have CVE identifiers:\n\n");
		for (size_t i = 0; i < t->ncommits; i++)
			if (t->commits[i].cve[0])
				sb_addf(out, "  %.12s is %s\n", t->commits[i].sha, t->commits[i].cve);
		break;
	case REQ_UNRELEASED:
		sb_adds(out, "CVEs are only assigned to fixes that are already in a released kernel tree.\n"
		             "These commits are not (or not yet) in a release:\n\n");
		for (size_t i = 0; i < t->ncommits; i++)
			sb_addf(out, "  %.12s%s\n", t->commits[i].text,
			        t->commits[i].sha[0] ? "" : " (unknown commit)");
		sb_adds(out, "\nPlease ask again once the fix is part of a stable release.\n");
		break;
	case REQ_RESERVE:
		sb_adds(out, "The CVE team can give an identifier for an issue that is not fixed yet from\n"
		             "its pool of reserved identifiers. A team member will reserve one for you\n"
		             "(kcve reserve-for) and reply with it; it is published once the fix is in a\n"
		             "stable release. If the issue is a security bug, please also report it as\n"
		             "described in Documentation/process/security-bugs.rst\n"
		             "(security@kernel.org).\n");
		break;
	case REQ_SECURITY:
		sb_adds(out, "This alias only assigns CVE identifiers to fixes that are already in released\n"
		             "kernel trees; it is not a channel for security bug reports. Please send your\n"
		             "report to the kernel security team at security@kernel.org, as described in\n"
		             "Documentation/process/security-bugs.rst. No copy of your report has been\n"
		             "kept here.\n");
		break;
	case REQ_OTHER:
		sb_adds(out, "This alias (cve@kernel.org) is for requests to assign CVE identifiers to\n"
		             "fixes that are already in released kernel trees: please name the commit id\n"
		             "of the fix. Security bugs go to security@kernel.org. Disputes of an\n"
		             "assigned CVE are decided by the maintainers of the affected subsystem.\n");
		break;
	}
	sb_adds(out, "\nthe Linux kernel CVE team\n\n");
	free(to);
	sb_release(&id);
	sb_release(&refs);
	sb_release(&subj);
}

char *request_queue_json(const struct mail *m, const struct request_triage *t, const char *now)
{
	json_t *o = json_object();
	json_object_set_new(o, "received", kj_str(now));
	char *from = sender_address(mail_get(m, "From"));
	json_object_set_new(o, "from", from ? kj_str(from) : json_null());
	free(from);
	struct strbuf s = STRBUF_INIT, id = STRBUF_INIT;
	clean_line(mail_get(m, "Subject"), &s, 200);
	msgids(mail_get(m, "Message-Id"), &id, 1);
	/* bytes that are not UTF-8 are escaped (core/kjson.h) */
	json_object_set_new(o, "subject", kj_str(s.buf ? s.buf : ""));
	json_object_set_new(o, "message_id", id.len ? kj_str(id.buf) : json_null());
	json_t *cv = json_array();
	for (size_t i = 0; i < t->ncommits; i++) {
		const struct request_commit *c = &t->commits[i];
		if (!c->sha[0] || !c->release || c->cve[0])
			continue;
		json_t *e = json_object();
		json_object_set_new(e, "sha", kj_str(c->sha));
		json_object_set_new(e, "release", kj_str(c->release));
		json_array_append_new(cv, e);
	}
	json_object_set_new(o, "commits", cv);
	char *r = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(o);
	sb_release(&s);
	sb_release(&id);
	return r;
}
