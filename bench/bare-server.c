// The floor Trellis is measured against: a bare libmicrohttpd server, in the same threading
// mode as Trellis (internal polling thread + epoll, a pool of --threads), answering every
// request with a fixed body after reading the request body in full.
//
//   bare-server PORT THREADS REPLY_FILE CONTENT_TYPE [CONNECTION_MEMORY]   (default 32 KiB, as Trellis)
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *reply;
static size_t reply_length;
static const char *content_type;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    if (*req_cls == NULL) {
        *req_cls = connection;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *response =
        MHD_create_response_from_buffer(reply_length, reply, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", content_type);
    enum MHD_Result result = MHD_queue_response(connection, 200, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: %s PORT THREADS REPLY_FILE CONTENT_TYPE [CONNECTION_MEMORY]\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[3], "rb");
    if (file == NULL) return 2;
    fseek(file, 0, SEEK_END);
    reply_length = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    reply = malloc(reply_length + 1);
    if (fread(reply, 1, reply_length, file) != reply_length) return 2;
    fclose(file);
    content_type = argv[4];
    unsigned int threads = (unsigned int)atoi(argv[2]);
    size_t connection_memory = argc == 6 ? (size_t)atol(argv[5]) : (size_t)(32 << 10);
    signal(SIGPIPE, SIG_IGN);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC, (uint16_t)atoi(argv[1]), NULL,
        NULL, answer, NULL, MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1168,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        connection_memory, threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, threads,
        MHD_OPTION_END);
    if (daemon == NULL) return 1;
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, NULL);
    int received;
    sigwait(&stop, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
