/* Line normalisation (see norm.h). */
#include <string.h>

#include "codefix/norm.h"

static bool idch(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static bool space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

size_t cf_norm(const char *s, size_t n, char *out)
{
	size_t o = 0;
	bool gap = false;
	for (size_t i = 0; i < n && o < CF_NORM_MAX; i++) {
		unsigned char c = (unsigned char)s[i];
		if (space(c)) {
			gap = true;
			continue;
		}
		if (gap && o && idch((unsigned char)out[o - 1]) && idch(c) && o + 1 < CF_NORM_MAX)
			out[o++] = ' ';
		gap = false;
		out[o++] = (char)(c < 0x20 || c == 0x7f ? '?' : c);
	}
	out[o] = '\0';
	return o;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define FNV0 0xcbf29ce484222325ULL

uint64_t cf_hash_strict(const char *norm, size_t n)
{
	return fnv(FNV0, norm, n);
}

#define KW(s) {s, sizeof s - 1}
static const struct {
	const char *s;
	size_t n;
} keywords[] = {
	KW("auto"), KW("break"), KW("case"), KW("char"), KW("const"), KW("continue"),
	KW("default"), KW("do"), KW("double"), KW("else"), KW("enum"), KW("extern"), KW("float"),
	KW("for"), KW("goto"), KW("if"), KW("inline"), KW("int"), KW("long"), KW("register"),
	KW("return"), KW("short"), KW("signed"), KW("sizeof"), KW("static"), KW("struct"),
	KW("switch"), KW("typedef"), KW("union"), KW("unsigned"), KW("void"), KW("volatile"),
	KW("while"), KW("bool"), KW("true"), KW("false"), KW("u8"), KW("u16"), KW("u32"),
	KW("u64"), KW("s8"), KW("s16"), KW("s32"), KW("s64"), KW("size_t"), KW("__le16"),
	KW("__le32"), KW("__le64"), KW("__be16"), KW("__be32"), KW("__be64"), KW("ssize_t"),
	KW("loff_t"), KW("gfp_t")};

static bool keep_name(const char *w, size_t n, const char *norm, size_t at, size_t len)
{
	if (w[0] >= '0' && w[0] <= '9')
		return true;
	bool lower = false;
	for (size_t i = 0; i < n; i++)
		lower |= w[i] >= 'a' && w[i] <= 'z';
	if (!lower)
		return true;
	size_t e = at + n;
	if (e < len && norm[e] == '(')
		return true;
	if (at >= 1 && norm[at - 1] == '.')
		return true;
	if (at >= 2 && norm[at - 2] == '-' && norm[at - 1] == '>')
		return true;
	for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
		if (keywords[k].n == n && keywords[k].s[0] == w[0] && !memcmp(keywords[k].s, w, n))
			return true;
	return false;
}

uint64_t cf_hash_loose(const char *norm, size_t n)
{
	uint64_t h = FNV0;
	size_t i = 0;
	while (i < n) {
		if (!idch((unsigned char)norm[i])) {
			h = fnv(h, norm + i, 1);
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && idch((unsigned char)norm[j]))
			j++;
		if (keep_name(norm + i, j - i, norm, i, n))
			h = fnv(h, norm + i, j - i);
		else
			h = fnv(h, "$", 1);
		i = j;
	}
	return h;
}

static const char *const common[] = {
	"break;", "continue;", "return;", "else", "}else{", "}else", "else{", "return 0;",
	"return ret;", "return err;", "return rc;", "return error;", "return false;",
	"return true;", "return NULL;", "goto out;", "goto err;", "goto fail;", "default:",
	"do{", "}while(0);", "#endif", "#else", "ret=0;", "err=0;", "*/", "/*", "*", "out:",
	"err:", "fail:", "unlock:", "int ret;", "int err;", "int i;", "return -EINVAL;",
	"return -ENOMEM;", "ret=-EINVAL;", "ret=-ENOMEM;"};

bool cf_trivial(const char *norm, size_t n)
{
	if (n <= 3)
		return true;
	for (size_t k = 0; k < sizeof common / sizeof *common; k++)
		if (strlen(common[k]) == n && !memcmp(common[k], norm, n))
			return true;
	return false;
}
