#include "publish/message.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "core/text.h"

void message_make_id(char *out, size_t n, const char *cve, time_t now, const char *host)
{
	struct tm tm;
	gmtime_r(&now, &tm);
	unsigned r = 0;
	FILE *f = fopen("/dev/urandom", "rb");
	if (!f || fread(&r, sizeof(r), 1, f) != 1)
		r = (unsigned)rand() ^ (unsigned)now;
	if (f)
		fclose(f);
	text_snprintf(out, n, "<%04d%02d%02d%02d-%s-%04x@%s>", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_sec, cve, r & 0xffff, host && *host ? host : "kcve");
}

void message_date(char *out, size_t n, time_t t)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const mons[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	struct tm tm;
	gmtime_r(&t, &tm);
	text_snprintf(out, n, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
		 mons[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static bool header_is(const char *line, size_t len, const char *name)
{
	size_t nl = strlen(name);
	return len > nl && line[nl] == ':' && !strncasecmp(line, name, nl);
}

/* Append one line (without its terminator) and CRLF. */
static void add_line(struct strbuf *out, const char *p, size_t len)
{
	if (len && p[len - 1] == '\r')
		len--;
	sb_add(out, p, len);
	sb_adds(out, "\r\n");
}

void message_build(struct strbuf *out, const char *mbox, size_t len, const char *msgid,
		   const char *date, const char *in_reply_to)
{
	const char *p = mbox, *end = mbox + len;
	bool have_irt = false, have_mime = false, have_ctype = false, have_cte = false;
	/* mbox separator "From xxx Mon Sep 17 00:00:00 2001" is not part of the message */
	if (len >= 5 && !strncmp(p, "From ", 5)) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	/* headers, dropping ones we own; a header's continuation lines follow it */
	bool dropping = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = nl ? nl + 1 : end;
		if (l == 0 || (l == 1 && p[0] == '\r')) {
			p = next;
			break;
		}
		if ((p[0] == ' ' || p[0] == '\t')) {
			if (!dropping)
				add_line(out, p, l);
			p = next;
			continue;
		}
		dropping = header_is(p, l, "Date") || header_is(p, l, "Message-Id");
		if (header_is(p, l, "In-Reply-To")) {
			const char *v = p + strlen("In-Reply-To:");
			size_t vl = l - strlen("In-Reply-To:");
			while (vl && isspace((unsigned char)*v))
				v++, vl--;
			while (vl && isspace((unsigned char)v[vl - 1]))
				vl--;
			if (vl == 0 || (vl == 2 && !strncmp(v, "<>", 2)))
				dropping = true;   /* empty: filled below */
			else
				have_irt = true;
		}
		have_mime |= header_is(p, l, "MIME-Version");
		have_ctype |= header_is(p, l, "Content-Type");
		have_cte |= header_is(p, l, "Content-Transfer-Encoding");
		if (!dropping)
			add_line(out, p, l);
		p = next;
	}
	sb_addf(out, "Date: %s\r\n", date);
	sb_addf(out, "Message-Id: %s\r\n", msgid);
	if (!have_irt && in_reply_to && *in_reply_to)
		sb_addf(out, "In-Reply-To: %s\r\nReferences: %s\r\n", in_reply_to, in_reply_to);
	if (!have_mime)
		sb_adds(out, "MIME-Version: 1.0\r\n");
	if (!have_ctype)
		sb_adds(out, "Content-Type: text/plain; charset=UTF-8\r\n");
	if (!have_cte)
		sb_adds(out, "Content-Transfer-Encoding: 8bit\r\n");
	sb_adds(out, "\r\n");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		add_line(out, p, l);
		p = nl ? nl + 1 : end;
	}
}

static bool clean_byte(unsigned char c)
{
	return c == '\t' || (c >= 0x20 && c != 0x7f);
}

bool message_value_ok(const char *v)
{
	for (; v && *v; v++)
		if (!clean_byte((unsigned char)*v))
			return false;
	return true;
}

size_t message_bad_header_line(const char *mbox, size_t len)
{
	const char *p = mbox, *end = mbox + len;
	for (size_t line = 1; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (l && p[l - 1] == '\r')
			l--;   /* the line's own CRLF ending is fine */
		if (l == 0)
			return 0;   /* end of the headers */
		for (size_t i = 0; i < l; i++)
			if (!clean_byte((unsigned char)p[i]))
				return line;
		p = nl ? nl + 1 : end;
	}
	return 0;
}
