/* The C baseline of the null cross-process portal call (bench/ipc-run): the median round trip
 * of one byte over a Unix stream socket between two processes (write, the peer reads and
 * writes it back, read), in batches of 2000, printed in microseconds per round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    enum { BATCHES = 25, CALLS = 2000 };
    int sv[2];
    char c = 0;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        while (read(sv[1], &c, 1) == 1) {
            if (write(sv[1], &c, 1) != 1) break;
        }
        _exit(0);
    }
    close(sv[1]);
    double per[BATCHES];
    for (int b = -5; b < BATCHES; b++) {
        double start = now_us();
        for (int i = 0; i < CALLS; i++) {
            if (write(sv[0], &c, 1) != 1 || read(sv[0], &c, 1) != 1) return 1;
        }
        if (b >= 0) per[b] = (now_us() - start) / CALLS;
    }
    close(sv[0]);
    waitpid(pid, NULL, 0);
    qsort(per, BATCHES, sizeof per[0], cmp);
    printf("%.1f\n", per[BATCHES / 2]);
    return 0;
}
