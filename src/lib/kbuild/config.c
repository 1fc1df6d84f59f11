/* .config parsing: the symbol table every Kbuild question is asked against.
 *
 * The grammar is what scripts/kconfig writes (confdata.c): `CONFIG_X=value`, `# CONFIG_X is not
 * set`, other `#` comments and blank lines.  Anything else is reported with its line number
 * rather than skipped, because a silently half-read config would turn into wrong "not compiled"
 * verdicts.  Values keep two forms: the raw text (what make sees, quotes included) and the
 * unquoted string returned by kb_config_get(). */
#include <errno.h>
#include <string.h>

#include "core/fileio.h"
#include "core/gunzip.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_int.h"

static struct kb_sym *find_sym(const struct kb_config *c, const char *name, size_t n)
{
	if (!c->nbuckets)
		return NULL;
	unsigned h = str_hash(name, n) & (c->nbuckets - 1);
	for (struct kb_sym *s = c->buckets[h]; s; s = s->next)
		if (strlen(s->name) == n && memcmp(s->name, name, n) == 0)
			return s;
	return NULL;
}

static void add_sym(struct kb_config *c, const char *name, size_t n, char *raw, char *value)
{
	struct kb_sym *s = find_sym(c, name, n);
	if (s) { /* later lines win, as in kconfig */
		free(s->raw);
		free(s->value);
		s->raw = raw;
		s->value = value;
		return;
	}
	s = xcalloc(1, sizeof(*s));
	s->name = xstrndup(name, n);
	s->raw = raw;
	s->value = value;
	unsigned h = str_hash(name, n) & (c->nbuckets - 1);
	s->next = c->buckets[h];
	c->buckets[h] = s;
	XGROW(c->syms, c->nsyms + 1, c->syms_alloc);
	c->syms[c->nsyms++] = s;
}

static void unset_sym(struct kb_config *c, const char *name, size_t n)
{
	struct kb_sym *s = find_sym(c, name, n);
	if (s) {
		free(s->raw);
		free(s->value);
		s->raw = NULL;
		s->value = NULL;
	}
}

static bool is_sym_char(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/* Unquote a kconfig string value ("a\"b" -> a"b).  Returns NULL if the quoting is broken. */
static char *unquote(const char *v, size_t n)
{
	if (n < 2 || v[0] != '"' || v[n - 1] != '"')
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 1; i + 1 < n; i++) {
		if (v[i] == '\\') {
			if (i + 2 >= n) { /* backslash escaping the closing quote */
				sb_release(&sb);
				return NULL;
			}
			i++;
		} else if (v[i] == '"') {
			sb_release(&sb);
			return NULL;
		}
		sb_addc(&sb, v[i]);
	}
	return sb_detach(&sb);
}

int kb_config_parse(struct kb_config **out, const char *text, size_t len, const char *name,
		    struct kcve_err *err)
{
	struct kb_config *c = xcalloc(1, sizeof(*c));
	c->nbuckets = 4096;
	c->buckets = xcalloc(c->nbuckets, sizeof(*c->buckets));
	size_t lineno = 0, pos = 0;
	bool any_config = false;
	*out = NULL;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n && line[n - 1] == '\r')
			n--;
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
			n--;
		size_t i = 0;
		while (i < n && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == n)
			continue;
		if (memchr(line, '\0', n)) {
			kcve_err_set(err, KCVE_E_PARSE, "NUL byte at line %zu of %s, not a .config", lineno, name);
			goto fail;
		}
		if (line[i] == '#') {
			/* "# CONFIG_FOO is not set" (the only comment that carries meaning) */
			static const char tail[] = " is not set";
			size_t j = i + 1;
			while (j < n && line[j] == ' ')
				j++;
			if (n - j > 7 && memcmp(line + j, "CONFIG_", 7) == 0 && n >= sizeof(tail) - 1 &&
			    memcmp(line + n - (sizeof(tail) - 1), tail, sizeof(tail) - 1) == 0) {
				size_t e = j;
				while (e < n && is_sym_char(line[e]))
					e++;
				if (e == n - (sizeof(tail) - 1) && e > j + 7) {
					unset_sym(c, line + j + 7, e - j - 7);
					any_config = true;
				}
			}
			continue;
		}
		if (n - i <= 7 || memcmp(line + i, "CONFIG_", 7) != 0) {
			kcve_err_set(err, KCVE_E_PARSE,
				     "line %zu of %s is neither CONFIG_X=value nor a comment, fix or regenerate the .config",
				     lineno, name);
			goto fail;
		}
		size_t s = i + 7, e = s;
		while (e < n && is_sym_char(line[e]))
			e++;
		if (e == s || e >= n || line[e] != '=') {
			kcve_err_set(err, KCVE_E_PARSE, "line %zu of %s: expected CONFIG_NAME=value", lineno,
				     name);
			goto fail;
		}
		const char *v = line + e + 1;
		size_t vn = n - (e + 1);
		char *value;
		if (vn && v[0] == '"') {
			value = unquote(v, vn);
			if (!value) {
				kcve_err_set(err, KCVE_E_PARSE, "line %zu of %s: unterminated or badly quoted string",
					     lineno, name);
				goto fail;
			}
		} else {
			for (size_t k = 0; k < vn; k++)
				if (v[k] == ' ' || v[k] == '\t' || v[k] == '"') {
					kcve_err_set(err, KCVE_E_PARSE,
						     "line %zu of %s: unquoted value with blanks or quotes", lineno,
						     name);
					goto fail;
				}
			if (vn == 0 || (vn == 1 && v[0] == 'n')) { /* "CONFIG_X=" / "=n" mean unset */
				unset_sym(c, line + s, e - s);
				any_config = true;
				continue;
			}
			value = xstrndup(v, vn);
		}
		add_sym(c, line + s, e - s, xstrndup(v, vn), value);
		any_config = true;
	}
	if (!any_config && len > 0) {
		kcve_err_set(err, KCVE_E_PARSE, "%s contains no CONFIG_ line, not a kernel .config", name);
		goto fail;
	}
	*out = c;
	return 0;
fail:
	kb_config_free(c);
	return -1;
}

/* gzip data (a copy of /proc/config.gz) -> text.  A stream that stops before its end marker and
 * checksum -- a truncated copy, even one cut at a line boundary -- is an error: the symbols after
 * the cut would read as "not set" and `check` would drop CVEs that apply. */
static int gunzip_config(const struct strbuf *in, struct strbuf *out, const char *path,
			 struct kcve_err *err)
{
	if (in->len > (64u << 20))
		return kcve_err_set(err, KCVE_E_PARSE, "%s is larger than 64 MiB, not a kernel config", path);
	enum gunzip_result g = gunzip_capped(in->buf, in->len, 64u << 20, out);
	if (g == GUNZIP_OK)
		return 0;
	if (g == GUNZIP_TOO_BIG)
		return kcve_err_set(err, KCVE_E_PARSE, "%s decompresses to more than 64 MiB, not a kernel config",
				    path);
	return kcve_err_set(err, KCVE_E_PARSE,
			    "%s is a truncated or corrupt gzip stream (%s); copy the whole /proc/config.gz again",
			    path, gunzip_reason(g));
}

/* Either form: a file starting with the gzip magic is decompressed first. */
int kb_config_load(struct kb_config **out, const char *path, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	*out = NULL;
	if (read_file(path, &sb) < 0) {
		kcve_err_set(err, KCVE_E_IO, "cannot read %s (%s), give the path of a kernel .config", path,
			     read_file_reason(errno));
		sb_release(&sb);
		return -1;
	}
	int r;
	if (gunzip_magic(sb.buf, sb.len)) {
		struct strbuf text = STRBUF_INIT;
		r = gunzip_config(&sb, &text, path, err);
		if (r == 0)
			r = kb_config_parse(out, sb_str(&text), text.len, path, err);
		sb_release(&text);
	} else {
		r = kb_config_parse(out, sb_str(&sb), sb.len, path, err);
	}
	sb_release(&sb);
	return r;
}

int kb_config_load_gz(struct kb_config **out, const char *path, struct kcve_err *err)
{
	return kb_config_load(out, path, err);
}

static const struct kb_sym *lookup(const struct kb_config *c, const char *sym)
{
	if (!c || !sym)
		return NULL;
	if (strncmp(sym, "CONFIG_", 7) == 0)
		sym += 7;
	return find_sym(c, sym, strlen(sym));
}

const char *kb_config_get(const struct kb_config *c, const char *sym)
{
	const struct kb_sym *s = lookup(c, sym);
	return s ? s->value : NULL;
}

const char *kb_config_raw(const struct kb_config *c, const char *sym)
{
	const struct kb_sym *s = lookup(c, sym);
	return s ? s->raw : NULL;
}

size_t kb_config_count(const struct kb_config *c)
{
	size_t n = 0;
	for (size_t i = 0; c && i < c->nsyms; i++)
		n += c->syms[i]->value != NULL;
	return n;
}

/* The Kconfig symbol each arch/<dir>/Kconfig defines unconditionally. */
static const char *const arch_syms[][2] = {
		{"UML", "um"},        {"X86", "x86"},         {"ARM64", "arm64"},     {"ARM", "arm"},
		{"RISCV", "riscv"},   {"PPC", "powerpc"},     {"S390", "s390"},
		{"MIPS", "mips"},     {"LOONGARCH", "loongarch"}, {"SPARC", "sparc"},
		{"PARISC", "parisc"}, {"M68K", "m68k"},       {"ALPHA", "alpha"},
		{"SUPERH", "sh"},     {"XTENSA", "xtensa"},
		{"IA64", "ia64"},     {"ARC", "arc"},         {"CSKY", "csky"},
		{"HEXAGON", "hexagon"}, {"MICROBLAZE", "microblaze"}, {"NIOS2", "nios2"},
		{"OPENRISC", "openrisc"}, {"H8300", "h8300"}, {"NDS32", "nds32"},
};

/* Index in arch_syms of the config's architecture, -1 when none is set. */
static int config_arch_index(const struct kb_config *c)
{
	for (size_t i = 0; i < sizeof(arch_syms) / sizeof(arch_syms[0]); i++) {
		const char *v = kb_config_get(c, arch_syms[i][0]);
		if (v && strcmp(v, "y") == 0)
			return (int)i;
	}
	return -1;
}

const char *kb_config_arch(const struct kb_config *c)
{
	int i = config_arch_index(c);
	return i < 0 ? NULL : arch_syms[i][1];
}

/* The top-level Makefile's ARCH -> SRCARCH names, with the word size they imply (0: either). */
static const struct {
	const char *arch, *srcarch;
	int bits;
} arch_alias[] = {
	{"i386", "x86", 32},     {"x86_64", "x86", 64},   {"sparc32", "sparc", 32},
	{"sparc64", "sparc", 64}, {"parisc64", "parisc", 64}, {"sh64", "sh", 0},
};

const char *kb_arch_srcarch(const char *arch)
{
	for (size_t i = 0; i < sizeof(arch_alias) / sizeof(arch_alias[0]); i++)
		if (!strcmp(arch, arch_alias[i].arch))
			return arch_alias[i].srcarch;
	return arch;
}

int kb_config_check_arch(const struct kb_config *c, const char *arch, struct kcve_err *err)
{
	int i = c && arch ? config_arch_index(c) : -1;
	if (i < 0)
		return 0; /* no architecture in the config (or none given): nothing to disagree with */
	const char *src = kb_arch_srcarch(arch);
	if (strcmp(src, arch_syms[i][1]))
		return kcve_err_set(err, KCVE_E_ARCH,
				    "architecture '%s' given, but the .config was made for %s (CONFIG_%s=y): "
				    "drop --arch (the config's architecture is the default) or use the matching config",
				    arch, arch_syms[i][1], arch_syms[i][0]);
	for (size_t k = 0; k < sizeof(arch_alias) / sizeof(arch_alias[0]); k++) {
		if (strcmp(arch, arch_alias[k].arch) || !arch_alias[k].bits)
			continue;
		const char *v = kb_config_get(c, "64BIT");
		int bits = v && !strcmp(v, "y") ? 64 : 32;
		if (bits != arch_alias[k].bits)
			return kcve_err_set(err, KCVE_E_ARCH,
					    "architecture '%s' given, but the .config is %d-bit (CONFIG_64BIT%s): "
					    "drop --arch (the config's architecture is the default) or use the matching config",
					    arch, bits, bits == 64 ? "=y" : " is not set");
	}
	return 0;
}

void kb_config_free(struct kb_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nsyms; i++) {
		free(c->syms[i]->name);
		free(c->syms[i]->raw);
		free(c->syms[i]->value);
		free(c->syms[i]);
	}
	free(c->syms);
	free(c->buckets);
	free(c);
}

const char *kb_verdict_name(enum kb_verdict v)
{
	switch (v) {
	case KB_COMPILED:
		return "compiled";
	case KB_NOT_COMPILED:
		return "not compiled";
	default:
		return "unknown";
	}
}
