/* Build-time helper: embed a text file in the library as a C string.
 *   embed-text SYMBOL INPUT OUTPUT.c
 * writes "const char SYMBOL_text[] = ...; const size_t SYMBOL_len = N;". Only printable ASCII,
 * tabs and newlines are accepted (the review model is such a file); anything else fails the
 * build with one line on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: embed-text SYMBOL INPUT OUTPUT.c\n");
		return 2;
	}
	FILE *in = fopen(argv[2], "rb");
	if (!in) {
		fprintf(stderr, "embed-text: cannot open %s\n", argv[2]);
		return 1;
	}
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[3]);
	FILE *out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "embed-text: cannot write %s\n", tmp);
		return 1;
	}
	fprintf(out, "/* generated from %s by tools/embed-text.c: do not edit */\n"
		     "#include <stddef.h>\nextern const char %s_text[];\nextern const size_t %s_len;\n"
		     "const char %s_text[] =\n\"", argv[2], argv[1], argv[1], argv[1]);
	size_t n = 0, col = 0;
	int c;
	while ((c = fgetc(in)) != EOF) {
		n++;
		if (c == '\n') {
			fputs("\\n\"\n\"", out);
			col = 0;
			continue;
		}
		if (c == '\t')
			fputs("\\t", out);
		else if (c == '?')
			fputs("\\?", out); /* never a trigraph in ISO C11 mode */
		else if (c == '\\' || c == '"')
			fprintf(out, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, out);
		else {
			fprintf(stderr, "embed-text: %s: byte 0x%02x at offset %zu is not printable ASCII\n",
				argv[2], (unsigned)c, n - 1);
			fclose(out);
			remove(tmp);
			return 1;
		}
		/* keep generated lines short */
		if (++col >= 200) {
			fputs("\"\n\"", out);
			col = 0;
		}
	}
	fprintf(out, "\";\nconst size_t %s_len = %zu;\n", argv[1], n);
	int bad = ferror(in) || ferror(out);
	fclose(in);
	if (fclose(out) || bad || rename(tmp, argv[3])) {
		fprintf(stderr, "embed-text: cannot write %s\n", argv[3]);
		remove(tmp);
		return 1;
	}
	return 0;
}
