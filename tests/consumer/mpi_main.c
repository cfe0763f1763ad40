/* SPDX-License-Identifier: MIT */
/* The installed MPI layer from outside the tree: each rank holds 1000 + rank ones, the
 * global exclusive scan must give each element its global index. Prints the runtime it
 * loaded (rank 0) and each rank's result; exits non-zero on any error or wrong value. */
#include <wgscan_mpi.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    wgs_mpi *m = NULL;
    wgs_result r = wgs_mpi_create(MPI_COMM_WORLD, NULL, &m);
    int bad = 0, rank = -1;
    if (r == WGS_OK) {
        wgs_context *ctx = wgs_mpi_context(m);
        rank = wgs_mpi_rank(m);
        wgs_context_info info;
        if (rank == 0 && wgs_context_get_info(ctx, &info) == WGS_OK)
            printf("mpi consumer: runtime %s\n", info.runtime_path);
        const uint64_t n = 1000 + (uint64_t)rank;
        uint64_t first = 0; /* the global index of this rank's first element */
        for (int q = 0; q < rank; q++) first += 1000 + (uint64_t)q;
        uint32_t *host = malloc(n * 4);
        WGPUBuffer buf = NULL;
        if (!host) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
        for (uint64_t i = 0; r == WGS_OK && i < n; i++) host[i] = 1;
        if (r == WGS_OK)
            r = wgs_buffer_create(ctx, n * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc,
                                  &buf);
        if (r == WGS_OK) r = wgs_buffer_write(ctx, buf, 0, host, n * 4);
        /* Collective: every rank calls it, even one whose buffer failed (it then fails too). */
        wgs_result s = wgs_mpi_scan(m, &(wgs_scan_plan_desc){0}, buf, 0, buf, 0, r == WGS_OK ? n : 0);
        if (r == WGS_OK) r = s;
        if (r == WGS_OK) r = wgs_buffer_read(ctx, buf, 0, host, n * 4);
        for (uint64_t i = 0; r == WGS_OK && i < n; i++) bad += host[i] != (uint32_t)(first + i);
        wgs_buffer_release(ctx, buf);
        free(host);
    }
    printf("mpi consumer: rank %d: %s, %d wrong\n", rank, wgs_result_name(r), bad);
    wgs_mpi_destroy(m);
    MPI_Finalize();
    return r != WGS_OK || bad;
}
