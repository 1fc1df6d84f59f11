#include "review/classify.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Words that describe a defect with security relevance. Matched case-insensitively at word
 * boundaries ('-' and '_' count as word characters inside a term, so "use-after-free" matches
 * but "fixup" does not match "fix"). */
static const char *const risk_words[] = {
	"use-after-free", "use after free", "uaf", "slab-use-after-free", "double free",
	"double-free", "out-of-bounds", "out of bounds", "oob", "buffer overflow", "overflow",
	"overflows", "underflow", "overrun", "overread", "over-read", "integer overflow",
	"shift-out-of-bounds", "array-index-out-of-bounds", "null pointer dereference",
	"null-ptr-deref", "null pointer", "null deref", "null dereference", "nullptr",
	"dereference", "deref", "memory leak", "leak", "leaks", "leaking", "refcount",
	"reference count", "refcnt", "race", "races", "racy", "data-race", "race condition",
	"deadlock", "dead lock", "lockup", "soft lockup", "hard lockup", "hang", "hangs",
	"hung", "stall", "infinite loop", "livelock", "panic", "oops", "bug", "bug_on",
	"warn", "warn_on", "warning", "crash", "crashes", "splat", "general protection fault",
	"gpf", "corruption", "corrupt", "corrupted", "uninitialized", "uninitialised",
	"uninit", "uninit-value", "kasan", "kmsan", "ubsan", "kcsan", "kfence", "syzbot",
	"syzkaller", "lockdep", "divide by zero", "division by zero", "divide-by-zero",
	"stack overflow", "info leak", "infoleak", "information leak", "privilege",
	"permission", "bypass", "unprivileged", "denial of service", "dos", "invalid access",
	"illegal access", "wild pointer", "dangling", "stale", "missing lock", "double lock",
	"unbalanced", "sleeping in atomic", "scheduling while atomic", "invalid free",
	"bad free", "memory corruption", "heap", "bounds", "out of range", "truncation",
	"sign extension", "signedness", "toctou", "spectre", "mitigation", "mitigations",
	"null", "zeroize", "zero-initialize", "wipe", "initialize", "initialise",
	"under lock", "lock", "locking", "mutex", "spinlock", "rcu", "reference", "timeout",
	"stuck", "errata", "erratum", "enforce", "enforcement", "permissions", "disallow",
	"sanitise", "secure", "fault", "invalid", "malformed", "untrusted", "user-controlled",
};

/* Words saying the change repairs something. */
static const char *const fix_words[] = {
	"fix", "fixes", "fixed", "fixing", "prevent", "prevents", "avoid", "avoids",
	"handle", "check", "checks", "validate", "validation", "sanitize", "correct",
	"correctly", "don't", "do not", "missing", "error path", "error handling", "properly",
	"ensure", "protect", "guard", "reject", "restore", "revert", "bail out", "release",
	"free", "cleanup on error", "unwind", "fail", "failure", "failed", "wrong", "incorrect",
	"broken", "break", "regression", "limit", "clamp", "bound", "zero-length", "unlock",
	"put", "drop", "disable", "workaround", "quirk", "skip", "stop", "block", "tolerate",
	"require", "always", "wait", "reset", "zero", "adjust", "keep", "hold",
	"recycle", "discard", "mask", "close", "re-enable",
};

/* Markers of changes that are not bug fixes. */
static const char *const benign_subject_words[] = {
	"docs", "documentation", "doc", "selftests", "selftest", "kunit", "typo", "typos",
	"spelling", "comment", "comments", "cosmetic", "cleanup", "clean up", "clean-up",
	"refactor", "rename", "whitespace", "coding style", "checkpatch", "maintainers",
	"dt-bindings", "add support", "introduce", "new driver", "add new", "update copyright",
	"kernel-doc", "debugfs: add", "tracing: add",
};
static const char *const benign_body_words[] = {
	"theoretical", "no functional change", "no functional changes", "nfc",
	"no behaviour change", "no behavior change", "build warning", "compile warning",
	"compiler warning", "w=1", "-wunused", "sparse warning", "false positive",
	"cosmetic", "not a real bug", "harmless",
};

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Case-insensitive match of term at s, bounded by non-word characters on both sides. */
static size_t match_term(const char *s, const char *line_start, const char *term)
{
	size_t n = strlen(term);
	if (s > line_start && is_word_char((unsigned char)s[-1]) && is_word_char((unsigned char)term[0]))
		return 0;
	if (strncasecmp(s, term, n) != 0)
		return 0;
	if (is_word_char((unsigned char)term[n - 1]) && (is_word_char((unsigned char)s[n]) || s[n] == '-'))
		return 0;
	return n;
}

static size_t match_any(const char *s, const char *line_start, const char *const *terms,
			size_t nterms, const char **which)
{
	size_t best = 0;
	for (size_t i = 0; i < nterms; i++) {
		size_t n = match_term(s, line_start, terms[i]);
		if (n > best) {
			best = n;
			if (which)
				*which = terms[i];
		}
	}
	return best;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t classify_risk_word_at(const char *s, const char *line_start)
{
	return match_any(s, line_start, risk_words, COUNT(risk_words), NULL);
}

size_t classify_benign_word_at(const char *s, const char *line_start)
{
	size_t n = match_any(s, line_start, benign_subject_words, COUNT(benign_subject_words), NULL);
	size_t m = match_any(s, line_start, benign_body_words, COUNT(benign_body_words), NULL);
	return n > m ? n : m;
}

/* First term of the list found anywhere in [text, end); NULL if none. */
static const char *find_in(const char *text, const char *end, const char *const *terms,
			   size_t nterms)
{
	for (const char *p = text; p < end; p++) {
		const char *which = NULL;
		if (match_any(p, text, terms, nterms, &which))
			return which;
	}
	return NULL;
}

static void add(struct classify_result *r, int pts, const char *fmt, const char *arg)
{
	r->score += pts;
	if (r->reasons.len)
		sb_adds(&r->reasons, "; ");
	sb_addf(&r->reasons, "%+d ", pts);
	sb_addf(&r->reasons, fmt, arg);
}

/* Does any line of the body start (after indentation) with this trailer? Returns the line. */
static const char *trailer_line(const char *body, const char *tag)
{
	size_t n = strlen(tag);
	for (const char *p = body; p && *p;) {
		const char *s = p;
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncasecmp(s, tag, n) == 0)
			return s;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static bool all_paths_under(const struct classify_input *in, const char *const *prefixes,
			    size_t nprefixes)
{
	if (!in->paths || in->npaths == 0)
		return false;
	for (size_t i = 0; i < in->npaths; i++) {
		bool hit = false;
		for (size_t j = 0; j < nprefixes && !hit; j++)
			hit = strncmp(in->paths[i], prefixes[j], strlen(prefixes[j])) == 0;
		if (!hit)
			return false;
	}
	return true;
}

static bool build_only_paths(const struct classify_input *in)
{
	if (!in->paths || in->npaths == 0)
		return false;
	for (size_t i = 0; i < in->npaths; i++) {
		const char *b = strrchr(in->paths[i], '/');
		b = b ? b + 1 : in->paths[i];
		if (strcmp(b, "Makefile") && strcmp(b, "Kconfig") && strncmp(b, "Kconfig.", 7) &&
		    strcmp(b, "Kbuild"))
			return false;
	}
	return true;
}

void classify_commit(const struct classify_input *in, struct classify_result *out)
{
	sb_init(&out->reasons);
	out->score = 0;
	const char *msg = in->message ? in->message : "";
	while (*msg == '\n' || *msg == ' ')
		msg++;
	const char *subj_end = strchr(msg, '\n');
	if (!subj_end)
		subj_end = msg + strlen(msg);
	const char *body = *subj_end ? subj_end + 1 : subj_end;
	const char *body_end = body + strlen(body);
	const char *w;

	if (in->nparents >= 2) {
		add(out, -10, "%s", "merge commit");
		out->candidate = false;
		return;
	}
	if (trailer_line(body, "fixes:"))
		add(out, 3, "%s", "Fixes: tag");
	const char *cc = trailer_line(body, "cc:");
	if (cc && strcasestr(body, "stable@"))
		add(out, 2, "%s", "Cc: stable");
	const char *rep = trailer_line(body, "reported-by:");
	if (rep && (strcasestr(rep, "syzbot") || strcasestr(rep, "syzkaller") ||
		    strcasestr(body, "reported-by: kernel test robot")))
		add(out, 2, "%s", "Reported-by a fuzzer or test robot");
	if ((w = find_in(msg, subj_end, risk_words, COUNT(risk_words))))
		add(out, 3, "risk word '%s' in subject", w);
	else if ((w = find_in(body, body_end, risk_words, COUNT(risk_words))))
		add(out, 2, "risk word '%s' in body", w);
	if ((w = find_in(msg, subj_end, fix_words, COUNT(fix_words))))
		add(out, 2, "fix word '%s' in subject", w);
	else if ((w = find_in(body, body_end, fix_words, COUNT(fix_words))))
		add(out, 1, "fix word '%s' in body", w);
	if (strncasecmp(msg, "revert \"", 8) == 0 || strncasecmp(msg, "revert '", 8) == 0)
		add(out, 1, "%s", "revert");
	/* "Fix cleanup path" is still a fix: the benign subject penalty does not apply when the
	 * subject names a defect or literally says it fixes something. */
	static const char *const fix_literal[] = {"fix", "fixes"};
	if (!find_in(msg, subj_end, risk_words, COUNT(risk_words)) &&
	    !find_in(msg, subj_end, fix_literal, COUNT(fix_literal)) &&
	    (w = find_in(msg, subj_end, benign_subject_words, COUNT(benign_subject_words))))
		add(out, -3, "benign subject '%s'", w);
	if ((w = find_in(body, body_end, benign_body_words, COUNT(benign_body_words))))
		add(out, -2, "benign body '%s'", w);
	static const char *const doc_test[] = {"Documentation/", "tools/testing/", "tools/",
					       "samples/"};
	if (all_paths_under(in, doc_test, COUNT(doc_test)))
		add(out, -4, "%s", "only documentation/selftests/tools touched");
	else if (build_only_paths(in))
		add(out, -1, "%s", "only build files touched");
	out->candidate = out->score >= CLASSIFY_THRESHOLD;
}

void classify_result_release(struct classify_result *r)
{
	sb_release(&r->reasons);
}
