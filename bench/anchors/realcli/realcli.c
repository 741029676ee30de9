/*
 * realcli: the stand-in "real CLI" the benchmarks install as `claude`.
 *
 * The mode comes from argv[1] when it is one of the words below, else from the
 * FLEETCOM_ANCHOR environment variable (for runs where the shim chooses the
 * arguments, as on the accepted path), else it is "quiet". Any other argument
 * is ignored, so `claude --session-id <id> --settings <file>` works.
 *
 *   quiet                 print nothing, exit 0
 *   bulk TOTAL WRITE      TOTAL bytes of 79-character lines, WRITE bytes a write
 *   frames TOTAL WRITE    ANSI redraws (home, colours, erase to end of line),
 *                         one write per WRITE-byte frame
 *   lines TOTAL           one write per 45-byte line
 *   echo                  raw terminal, print "R", write back each byte read
 *                         until 'q'
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static void write_all(const char *p, size_t n) {
	while (n > 0) {
		ssize_t w = write(1, p, n);
		if (w < 0)
			exit(1);
		p += w;
		n -= (size_t)w;
	}
}

/* emit writes total bytes of buf (len bytes, repeated) in writes of each. */
static void emit(const char *buf, size_t len, long long total, size_t each) {
	while (total > 0) {
		size_t n = each < (size_t)total ? each : (size_t)total;
		if (n > len)
			n = len;
		write_all(buf, n);
		total -= (long long)n;
	}
}

static char *fill_lines(size_t n) {
	char *b = malloc(n);
	for (size_t i = 0; i < n; i++)
		b[i] = (i % 80 == 79) ? '\n' : (char)('a' + i % 26);
	return b;
}

static char *fill_frame(size_t n) {
	char *b = malloc(n + 64), *p = b;
	p += sprintf(p, "\033[H");
	for (int row = 0; (size_t)(p - b) < n; row++) {
		int k = sprintf(p, "\033[38;5;%dm%3d \033[1mstatus\033[0m working on item %d\033[K\r\n",
		                row % 256, row, row * 7);
		p += k;
	}
	return b;
}

static int echo_mode(void) {
	struct termios t;
	if (tcgetattr(0, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(0, TCSANOW, &t);
	}
	write_all("R", 1);
	char c;
	while (read(0, &c, 1) == 1 && c != 'q')
		write_all(&c, 1);
	return 0;
}

int main(int argc, char **argv) {
	char *words[4] = {0};
	int nw = 0;
	const char *modes = " quiet bulk frames lines echo ";
	char key[32];
	if (argc > 1 && strlen(argv[1]) < 20) {
		snprintf(key, sizeof key, " %s ", argv[1]);
		if (strstr(modes, key))
			for (int i = 1; i < argc && nw < 4; i++)
				words[nw++] = argv[i];
	}
	char *env = getenv("FLEETCOM_ANCHOR");
	if (nw == 0 && env) {
		env = strdup(env);
		for (char *w = strtok(env, " "); w && nw < 4; w = strtok(NULL, " "))
			words[nw++] = w;
	}
	if (nw == 0 || strcmp(words[0], "quiet") == 0)
		return 0;
	long long total = nw > 1 ? atoll(words[1]) : 0;
	size_t each = nw > 2 ? (size_t)atoll(words[2]) : 65536;
	if (strcmp(words[0], "bulk") == 0) {
		emit(fill_lines(each), each, total, each);
	} else if (strcmp(words[0], "frames") == 0) {
		char *f = fill_frame(each);
		emit(f, each, total, each);
	} else if (strcmp(words[0], "lines") == 0) {
		emit(fill_lines(80) + 35, 45, total, 45);
	} else if (strcmp(words[0], "echo") == 0) {
		return echo_mode();
	}
	return 0;
}
