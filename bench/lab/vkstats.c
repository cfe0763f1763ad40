/* SPDX-License-Identifier: MIT */
/*
 * vkstats.c: what the Vulkan driver made of a compute shader. Not part of the library:
 * a laboratory tool that takes SPIR-V (Dawn's, dumped by bench/lab/dump-spirv.sh, or
 * glslangValidator's) straight to the driver, without WebGPU in between.
 *
 *   wgscan-vkstats [--entry NAME] [--ir DIR] [--no-robust] [--no-validate] FILE.spv ...
 *   wgscan-vkstats --time --groups X[,Y[,Z]] [--runs R] [--buffer B=BYTES[:FILL]|B=@FILE]...
 *                  [--uniform B=W0,W1,...]... [--dump B=FILE]... FILE.spv ...
 *   wgscan-vkstats --copy BYTES [--runs R]
 *
 * For each file: the descriptor bindings are read from the SPIR-V itself (storage and
 * uniform buffers; images, samplers and descriptor arrays are refused), a matching
 * layout is made and the compute pipeline is created (after spirv-val, where it is found,
 * has passed the module: drivers crash on bad SPIR-V). Where the device offers
 * VK_KHR_pipeline_executable_properties, every statistic of every executable is printed
 * (on NVIDIA: registers, spills, shared memory, ...) and --ir DIR writes each internal
 * representation to DIR/FILE.EXECUTABLE.NAME.txt; elsewhere one line says so. --ir also
 * writes the pipeline cache's data after the pipeline alone was compiled into it
 * (DIR/FILE.cache): NVIDIA's driver gives no internal representation, but its cache
 * holds the machine code, which bench/lab/sass.sh disassembles with the CUDA toolkit.
 *
 * --time binds a device-local buffer to every binding of set 0 (--buffer: BYTES with an
 * optional K, M, G or 2^N form, FILL zero (default), random (u32 xorshift) or iota, or
 * @FILE: the file's bytes; --uniform: 32-bit words), dispatches the groups R times
 * (default 20) after 3 warm-ups, each dispatch between two timestamps, and prints the
 * median and minimum GPU time. --dump B=FILE then writes binding B's buffer to FILE (one
 * module only), so the output of two modules can be compared.
 * --copy times vkCmdCopyBuffer of BYTES the same way, the memory reference.
 *
 * The device: the first discrete GPU, else the first one. Every feature it offers is
 * enabled (so that any SPIR-V the driver can run is accepted), robustBufferAccess
 * included, as Dawn enables it; --no-robust leaves it off. Dawn may also enable
 * VK_EXT_robustness2 and per-pipeline robustness, which this tool does not mirror.
 *
 * Exit status: 0 success, 2 bad usage or input (a missing, truncated or unusable .spv),
 * 3 Vulkan error.
 */
#define _POSIX_C_SOURCE 200809L
#include <vulkan/vulkan.h>

#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

enum { EXIT_USAGE = 2, EXIT_VULKAN = 3 };
enum { WARMUPS = 3, MAX_BINDINGS = 32, MAX_SPECS = 32 };

static int msg(int rc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("wgscan-vkstats: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return rc;
}

#define VK_CHECK(call)                                                                   \
    do {                                                                                 \
        VkResult r_ = (call);                                                            \
        if (r_ < 0) return msg(EXIT_VULKAN, "%s failed: VkResult %d", #call, (int)r_);  \
    } while (0)

/* ---- SPIR-V reflection ------------------------------------------------------------- */

typedef struct binding {
    uint32_t set, binding;
    VkDescriptorType type;
} binding;

typedef struct module {
    const char *path;
    uint32_t *words;
    size_t n;
    char entry[256];
    uint32_t local[3];
    binding b[MAX_BINDINGS];
    uint32_t nb, max_set;
    int push_constants;
} module;

/* What the reflection needs to know of one result id. */
typedef struct id_info {
    uint32_t set, binding, ptr_class, ptr_type, var_type;
    uint8_t has_set, has_binding, block, buffer_block, is_ptr, is_array, is_var, is_func, is_called;
} id_info;

enum {
    OP_ENTRY_POINT = 15, OP_EXECUTION_MODE = 16, OP_TYPE_ARRAY = 28,
    OP_TYPE_RUNTIME_ARRAY = 29, OP_TYPE_POINTER = 32, OP_FUNCTION = 54, OP_FUNCTION_END = 56,
    OP_FUNCTION_CALL = 57, OP_VARIABLE = 59, OP_DECORATE = 71
};
enum { SC_UNIFORM_CONSTANT = 0, SC_UNIFORM = 2, SC_PUSH_CONSTANT = 9, SC_STORAGE_BUFFER = 12 };
enum { DEC_BLOCK = 2, DEC_BUFFER_BLOCK = 3, DEC_BINDING = 33, DEC_DESCRIPTOR_SET = 34 };
enum { MODEL_GLCOMPUTE = 5, MODE_LOCAL_SIZE = 17, MAX_ID_BOUND = 1u << 22 };

/* A literal string at word `at` of an instruction of `wc` words; NULL if unterminated. */
static const char *spv_string(const uint32_t *ins, uint32_t wc, uint32_t at) {
    if (at >= wc) return NULL;
    const char *s = (const char *)(ins + at);
    size_t cap = (size_t)(wc - at) * 4;
    return strnlen(s, cap) < cap ? s : NULL;
}

static int read_file(module *m) {
    FILE *f = fopen(m->path, "rb");
    if (!f) return msg(EXIT_USAGE, "%s: cannot open: %s", m->path, strerror(errno));
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len < 0 || len > (1L << 30) || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return msg(EXIT_USAGE, "%s: not a regular file of at most 1 GiB", m->path);
    }
    if (len < 20 || len % 4) {
        fclose(f);
        return msg(EXIT_USAGE, "%s: not SPIR-V (%ld bytes: not a multiple of 4 of at least 20)", m->path, len);
    }
    m->n = (size_t)len / 4;
    m->words = malloc((size_t)len);
    size_t got = m->words ? fread(m->words, 4, m->n, f) : 0;
    fclose(f);
    if (got != m->n) return msg(EXIT_USAGE, "%s: read failed", m->path);
    if (m->words[0] != 0x07230203u)
        return msg(EXIT_USAGE, "%s: not SPIR-V (magic 0x%08x)", m->path, m->words[0]);
    return 0;
}

static int cmp_binding(const void *a, const void *b) {
    const binding *x = a, *y = b;
    return x->set != y->set ? (x->set > y->set) - (x->set < y->set) : (x->binding > y->binding) - (x->binding < y->binding);
}

/* Reads the entry point, its workgroup size and every buffer binding of the module. */
static int reflect(module *m, const char *want_entry) {
    uint32_t bound = m->words[3];
    if (bound == 0 || bound > MAX_ID_BOUND) return msg(EXIT_USAGE, "%s: id bound %u out of range", m->path, bound);
    id_info *id = calloc(bound, sizeof *id);
    if (!id) return msg(EXIT_USAGE, "%s: out of memory", m->path);
    uint32_t entry_id = 0, functions = 0, last_op = 0;
    int rc = 0;
#define BAD(...) do { rc = msg(EXIT_USAGE, __VA_ARGS__); goto done; } while (0)
#define ID(x) ((x) < bound ? &id[x] : NULL)
    for (size_t i = 5; i < m->n;) {
        const uint32_t *a = m->words + i;
        uint32_t wc = a[0] >> 16, op = a[0] & 0xffffu;
        if (wc == 0 || wc > m->n - i) BAD("%s: instruction at word %zu runs past the end (truncated?)", m->path, i);
        id_info *t = wc > 1 ? ID(a[1]) : NULL, *r = wc > 2 ? ID(a[2]) : NULL;
        functions += (op == OP_FUNCTION) - (op == OP_FUNCTION_END);
        last_op = op;
        if (op == OP_ENTRY_POINT && wc > 3 && a[1] == MODEL_GLCOMPUTE && !entry_id) {
            const char *s = spv_string(a, wc, 3);
            if (!s) BAD("%s: malformed OpEntryPoint at word %zu", m->path, i);
            if (!want_entry || strcmp(s, want_entry) == 0) {
                entry_id = a[2];
                snprintf(m->entry, sizeof m->entry, "%s", s);
            }
        } else if (op == OP_EXECUTION_MODE && wc >= 6 && a[2] == MODE_LOCAL_SIZE && a[1] == entry_id) {
            memcpy(m->local, a + 3, sizeof m->local);
        } else if (op == OP_TYPE_ARRAY || op == OP_TYPE_RUNTIME_ARRAY) {
            if (t) t->is_array = 1;
        } else if (op == OP_TYPE_POINTER && wc >= 4 && t) {
            t->is_ptr = 1;
            t->ptr_class = a[2];
            t->ptr_type = a[3];
        } else if (op == OP_FUNCTION && r) {
            r->is_func = 1;
        } else if (op == OP_FUNCTION_CALL && wc >= 4 && a[3] < bound) {
            id[a[3]].is_called = 1;
        } else if (op == OP_VARIABLE && wc >= 4 && r) {
            r->is_var = 1;
            r->var_type = a[1];
            r->ptr_class = a[3];
        } else if (op == OP_DECORATE && wc >= 3 && t) {
            if (a[2] == DEC_BLOCK) t->block = 1;
            if (a[2] == DEC_BUFFER_BLOCK) t->buffer_block = 1;
            if (a[2] == DEC_DESCRIPTOR_SET && wc >= 4) t->has_set = 1, t->set = a[3];
            if (a[2] == DEC_BINDING && wc >= 4) t->has_binding = 1, t->binding = a[3];
        }
        i += wc;
    }
    /* Cut within a function or before a called one: refused here, spirv-val or not. */
    if (!entry_id) BAD("%s: no GLCompute entry point%s%s", m->path, want_entry ? " named " : "", want_entry ? want_entry : "");
    if (functions || last_op != OP_FUNCTION_END) BAD("%s: ends before its last function does (truncated?)", m->path);
    for (uint32_t f = 0; f < bound; f++)
        if ((id[f].is_called || f == entry_id) && !id[f].is_func) BAD("%s: function %%%u is missing (truncated?)", m->path, f);
    /* Every decorated variable of the module: a layout may hold more than the entry uses. */
    for (uint32_t v = 0; v < bound; v++) {
        if (!id[v].is_var) continue;
        if (id[v].ptr_class == SC_PUSH_CONSTANT) m->push_constants = 1;
        if (!id[v].has_set || !id[v].has_binding) continue;
        id_info *ptr = ID(id[v].var_type), *pointee = ptr && ptr->is_ptr ? ID(ptr->ptr_type) : NULL;
        if (!pointee) BAD("%s: variable %%%u has no pointer type", m->path, v);
        if (pointee->is_array) BAD("%s: binding %u.%u is a descriptor array: not supported", m->path, id[v].set, id[v].binding);
        VkDescriptorType type;
        if (id[v].ptr_class == SC_STORAGE_BUFFER || (id[v].ptr_class == SC_UNIFORM && pointee->buffer_block))
            type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        else if (id[v].ptr_class == SC_UNIFORM)
            type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        else
            BAD("%s: binding %u.%u is an image or sampler (storage class %u): not supported", m->path, id[v].set,
                id[v].binding, id[v].ptr_class);
        uint32_t k = 0;
        while (k < m->nb && (m->b[k].set != id[v].set || m->b[k].binding != id[v].binding)) k++;
        if (k < m->nb && m->b[k].type != type) BAD("%s: binding %u.%u declared twice with two types", m->path, id[v].set, id[v].binding);
        if (k == MAX_BINDINGS || id[v].set > 7) BAD("%s: more than %d bindings or sets past 7", m->path, MAX_BINDINGS);
        if (k == m->nb) m->b[m->nb++] = (binding){id[v].set, id[v].binding, type};
        if (id[v].set > m->max_set) m->max_set = id[v].set;
    }
    qsort(m->b, m->nb, sizeof *m->b, cmp_binding);
done:
#undef BAD
#undef ID
    free(id);
    return rc;
}

/* Drivers trust the module they are given, and a bad one can crash them: spirv-val
 * ($SPIRV_VAL, else from the PATH) checks it first where it is found. Returns 0 valid,
 * 1 invalid, -1 no validator. */
static int validate(const module *m) {
    const char *val = getenv("SPIRV_VAL") && *getenv("SPIRV_VAL") ? getenv("SPIRV_VAL") : "spirv-val";
    uint32_t minor = m->words[1] >> 8 & 0xff; /* the SPIR-V version: 1.x */
    const char *env = minor <= 3 ? "vulkan1.1" : minor == 4 ? "vulkan1.1spv1.4" : minor == 5 ? "vulkan1.2" : "vulkan1.3";
    char *args[] = {(char *)val, "--target-env", (char *)env, (char *)m->path, NULL};
    pid_t pid;
    int status;
    fflush(stdout);
    if (posix_spawnp(&pid, val, NULL, NULL, args, environ) != 0) return -1;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

/* ---- the device --------------------------------------------------------------------- */

typedef struct gpu {
    VkInstance inst;
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    VkCommandPool pool;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    uint32_t family, api;
    uint64_t ts_mask;
    int exec_props;
    PFN_vkGetPipelineExecutablePropertiesKHR exec_get;
    PFN_vkGetPipelineExecutableStatisticsKHR stats_get;
    PFN_vkGetPipelineExecutableInternalRepresentationsKHR ir_get;
} gpu;

static void print_device(const gpu *g) {
    static const char *kinds[] = {"other", "integrated", "discrete", "virtual", "cpu"};
    const VkPhysicalDeviceProperties *p = &g->props;
    uint32_t v = p->driverVersion;
    char ver[64];
    if (p->vendorID == 0x10de) /* NVIDIA packs 10.8.8.6 bits */
        snprintf(ver, sizeof ver, "%u.%u.%u", v >> 22, (v >> 14) & 0xff, (v >> 6) & 0xff);
    else
        snprintf(ver, sizeof ver, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
    char info[600] = "";
    if (g->api >= VK_API_VERSION_1_2) {
        VkPhysicalDeviceDriverProperties d = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &d};
        vkGetPhysicalDeviceProperties2(g->pd, &p2);
        snprintf(info, sizeof info, " (%s %s)", d.driverName, d.driverInfo);
    }
    printf("device: %s, %s, vendor 0x%04x, Vulkan %u.%u.%u; driver version %s (0x%08x)%s\n", p->deviceName,
           p->deviceType <= 4 ? kinds[p->deviceType] : "?", p->vendorID, VK_API_VERSION_MAJOR(p->apiVersion),
           VK_API_VERSION_MINOR(p->apiVersion), VK_API_VERSION_PATCH(p->apiVersion), ver, v, info);
}

static int gpu_open(gpu *g, int robust) {
    uint32_t loader = VK_API_VERSION_1_0;
    vkEnumerateInstanceVersion(&loader);
    if (loader < VK_API_VERSION_1_1) return msg(EXIT_VULKAN, "the Vulkan loader offers 1.0 only; 1.1 is needed");
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "wgscan-vkstats",
                             .apiVersion = loader < VK_API_VERSION_1_3 ? loader : VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VK_CHECK(vkCreateInstance(&ici, NULL, &g->inst));
    uint32_t n = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(g->inst, &n, NULL));
    if (n == 0) return msg(EXIT_VULKAN, "no Vulkan device (is an ICD installed? VK_ICD_FILENAMES?)");
    VkPhysicalDevice pds[16];
    if (n > 16) n = 16;
    VK_CHECK(vkEnumeratePhysicalDevices(g->inst, &n, pds));
    g->pd = pds[0];
    for (uint32_t i = 0; i < n; i++) {
        vkGetPhysicalDeviceProperties(pds[i], &g->props);
        if (g->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
            g->pd = pds[i];
            break;
        }
    }
    vkGetPhysicalDeviceProperties(g->pd, &g->props);
    vkGetPhysicalDeviceMemoryProperties(g->pd, &g->mem);
    g->api = g->props.apiVersion < app.apiVersion ? g->props.apiVersion : app.apiVersion;
    if (g->api < VK_API_VERSION_1_1) return msg(EXIT_VULKAN, "%s offers Vulkan 1.0 only", g->props.deviceName);
    print_device(g);

    VkQueueFamilyProperties qf[32];
    uint32_t nq = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(g->pd, &nq, qf);
    g->family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && g->family == UINT32_MAX; i++)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) g->family = i;
    if (g->family == UINT32_MAX) return msg(EXIT_VULKAN, "no compute queue");
    uint32_t bits = qf[g->family].timestampValidBits;
    g->ts_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;

    uint32_t ne = 0;
    VK_CHECK(vkEnumerateDeviceExtensionProperties(g->pd, NULL, &ne, NULL));
    VkExtensionProperties *ext = calloc(ne ? ne : 1, sizeof *ext);
    if (!ext) return msg(EXIT_VULKAN, "out of memory");
    VK_CHECK(vkEnumerateDeviceExtensionProperties(g->pd, NULL, &ne, ext));
    const char *exec_ext = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    for (uint32_t i = 0; i < ne; i++) g->exec_props |= strcmp(ext[i].extensionName, exec_ext) == 0;
    free(ext);

    /* Every feature the device offers, as one chain. */
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fe = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    void *chain = NULL;
    if (g->exec_props) fe.pNext = chain, chain = &fe;
    if (g->api >= VK_API_VERSION_1_3) f13.pNext = chain, chain = &f13;
    if (g->api >= VK_API_VERSION_1_2) {
        f12.pNext = chain, chain = &f12;
        f11.pNext = chain, chain = &f11;
    }
    f2.pNext = chain;
    vkGetPhysicalDeviceFeatures2(g->pd, &f2);
    if (!robust) f2.features.robustBufferAccess = VK_FALSE;
    g->exec_props = g->exec_props && fe.pipelineExecutableInfo;

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = g->family,
                                   .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci, .enabledExtensionCount = g->exec_props ? 1 : 0,
                              .ppEnabledExtensionNames = &exec_ext};
    VK_CHECK(vkCreateDevice(g->pd, &dci, NULL, &g->dev));
    vkGetDeviceQueue(g->dev, g->family, 0, &g->queue);
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = g->family};
    VK_CHECK(vkCreateCommandPool(g->dev, &pci, NULL, &g->pool));
    if (g->exec_props) {
        g->exec_get = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(g->dev, "vkGetPipelineExecutablePropertiesKHR");
        g->stats_get = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(g->dev, "vkGetPipelineExecutableStatisticsKHR");
        g->ir_get = (PFN_vkGetPipelineExecutableInternalRepresentationsKHR)vkGetDeviceProcAddr(
            g->dev, "vkGetPipelineExecutableInternalRepresentationsKHR");
        g->exec_props = g->exec_get && g->stats_get && g->ir_get;
    }
    if (!g->exec_props)
        printf("no VK_KHR_pipeline_executable_properties (pipelineExecutableInfo) on this device: no statistics, "
               "pipelines only compiled\n");
    return 0;
}

static void gpu_close(gpu *g) {
    if (g->dev) {
        vkDeviceWaitIdle(g->dev);
        if (g->pool) vkDestroyCommandPool(g->dev, g->pool, NULL);
        vkDestroyDevice(g->dev, NULL);
    }
    if (g->inst) vkDestroyInstance(g->inst, NULL);
}

/* ---- pipelines and their statistics -------------------------------------------------- */

typedef struct pipeline {
    VkShaderModule shader;
    VkDescriptorSetLayout sets[8];
    VkPipelineLayout layout;
    VkPipeline pipe;
    VkPipelineCache cache;
} pipeline;

static void pipeline_destroy(const gpu *g, pipeline *p) {
    if (p->pipe) vkDestroyPipeline(g->dev, p->pipe, NULL);
    if (p->cache) vkDestroyPipelineCache(g->dev, p->cache, NULL);
    if (p->layout) vkDestroyPipelineLayout(g->dev, p->layout, NULL);
    for (int s = 0; s < 8; s++)
        if (p->sets[s]) vkDestroyDescriptorSetLayout(g->dev, p->sets[s], NULL);
    if (p->shader) vkDestroyShaderModule(g->dev, p->shader, NULL);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void file_safe(char *s) {
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
            *s = '_';
}

/* Writes len bytes to DIR/NAME (NAME made safe for a file name, in place); what says
 * what they are in the line that reports it. */
static int write_out(const char *dir, char *name, const void *data, size_t len, const char *what) {
    char path[1280];
    file_safe(name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = data ? fopen(path, "wb") : NULL;
    int rc = !f || fwrite(data, 1, len, f) != len ? msg(EXIT_USAGE, "%s: cannot write", path) : 0;
    if (!rc) printf("    wrote %s (%s, %zu bytes)\n", path, what, len);
    if (f) fclose(f);
    return rc;
}

static const char *base_name(const module *m) { return strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path; }

/* The cache's data as the driver gives it (the Vulkan header, then the driver's own). */
static int write_cache(const gpu *g, const module *m, VkPipelineCache cache, const char *dir) {
    size_t len = 0;
    VK_CHECK(vkGetPipelineCacheData(g->dev, cache, &len, NULL));
    void *data = malloc(len ? len : 1);
    if (!data) return msg(EXIT_VULKAN, "out of memory");
    int rc = vkGetPipelineCacheData(g->dev, cache, &len, data) < 0 ? msg(EXIT_VULKAN, "reading the pipeline cache failed") : 0;
    char name[640];
    snprintf(name, sizeof name, "%s.cache", base_name(m));
    if (!rc) rc = write_out(dir, name, data, len, "the pipeline cache");
    free(data);
    return rc;
}

static int pipeline_create(const gpu *g, const module *m, pipeline *p, const char *cache_dir) {
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = m->n * 4,
                                     .pCode = m->words};
    VK_CHECK(vkCreateShaderModule(g->dev, &smci, NULL, &p->shader));
    uint32_t n_sets = m->nb ? m->max_set + 1 : 0;
    for (uint32_t s = 0; s < n_sets; s++) {
        VkDescriptorSetLayoutBinding lb[MAX_BINDINGS];
        uint32_t n = 0;
        for (uint32_t k = 0; k < m->nb; k++)
            if (m->b[k].set == s)
                lb[n++] = (VkDescriptorSetLayoutBinding){m->b[k].binding, m->b[k].type, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
        VkDescriptorSetLayoutCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                               .bindingCount = n, .pBindings = lb};
        VK_CHECK(vkCreateDescriptorSetLayout(g->dev, &sci, NULL, &p->sets[s]));
    }
    /* The block's size is not reflected: the most the device allows covers any. */
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, g->props.limits.maxPushConstantsSize};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = n_sets,
                                      .pSetLayouts = p->sets, .pushConstantRangeCount = m->push_constants ? 1 : 0,
                                      .pPushConstantRanges = &pcr};
    VK_CHECK(vkCreatePipelineLayout(g->dev, &lci, NULL, &p->layout));
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = g->exec_props ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                                     VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR
                               : 0,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = p->shader, .pName = m->entry},
        .layout = p->layout};
    if (cache_dir) {
        VkPipelineCacheCreateInfo cci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
        VK_CHECK(vkCreatePipelineCache(g->dev, &cci, NULL, &p->cache));
    }
    double t0 = now_ms();
    VK_CHECK(vkCreateComputePipelines(g->dev, p->cache, 1, &ci, NULL, &p->pipe));
    printf("  pipeline compiled in %.1f ms\n", now_ms() - t0);
    return cache_dir ? write_cache(g, m, p->cache, cache_dir) : 0;
}

static int write_irs(const gpu *g, const module *m, const VkPipelineExecutableInfoKHR *ei, const char *dir) {
    uint32_t n = 0;
    VK_CHECK(g->ir_get(g->dev, ei, &n, NULL));
    VkPipelineExecutableInternalRepresentationKHR *ir = calloc(n ? n : 1, sizeof *ir);
    if (!ir) return msg(EXIT_VULKAN, "out of memory");
    for (uint32_t i = 0; i < n; i++) ir[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR;
    int rc = 0;
    if (g->ir_get(g->dev, ei, &n, ir) >= 0) { /* the sizes first, then the data */
        for (uint32_t i = 0; i < n; i++) ir[i].pData = malloc(ir[i].dataSize ? ir[i].dataSize : 1);
        if (g->ir_get(g->dev, ei, &n, ir) < 0) n = 0, rc = msg(EXIT_VULKAN, "reading the internal representations failed");
    }
    for (uint32_t i = 0; i < n; i++) {
        char name[640];
        snprintf(name, sizeof name, "%s.%u.%s.%s", base_name(m), ei->executableIndex, ir[i].name, ir[i].isText ? "txt" : "bin");
        size_t len = !ir[i].pData ? 0 : ir[i].isText ? strnlen(ir[i].pData, ir[i].dataSize) : ir[i].dataSize;
        if (write_out(dir, name, ir[i].pData, len, ir[i].description)) rc = EXIT_USAGE;
        free(ir[i].pData);
    }
    free(ir);
    return rc;
}

static int print_stats(const gpu *g, const module *m, VkPipeline pipe, const char *ir_dir) {
    VkPipelineInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipe};
    uint32_t n = 0;
    VK_CHECK(g->exec_get(g->dev, &pi, &n, NULL));
    VkPipelineExecutablePropertiesKHR props[8];
    if (n > 8) n = 8;
    for (uint32_t i = 0; i < n; i++) props[i] = (VkPipelineExecutablePropertiesKHR){.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR};
    VK_CHECK(g->exec_get(g->dev, &pi, &n, props));
    int rc = 0;
    for (uint32_t e = 0; e < n; e++) {
        printf("  executable %u: %s (%s), subgroup size %u\n", e, props[e].name, props[e].description, props[e].subgroupSize);
        VkPipelineExecutableInfoKHR ei = {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = pipe,
                                          .executableIndex = e};
        uint32_t ns = 0;
        VK_CHECK(g->stats_get(g->dev, &ei, &ns, NULL));
        VkPipelineExecutableStatisticKHR *st = calloc(ns ? ns : 1, sizeof *st);
        if (!st) return msg(EXIT_VULKAN, "out of memory");
        for (uint32_t i = 0; i < ns; i++) st[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
        if (g->stats_get(g->dev, &ei, &ns, st) < 0) ns = 0, rc = msg(EXIT_VULKAN, "reading the statistics failed");
        for (uint32_t i = 0; i < ns; i++) {
            VkPipelineExecutableStatisticValueKHR v = st[i].value;
            switch (st[i].format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: printf("    %-32s %s\n", st[i].name, v.b32 ? "true" : "false"); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: printf("    %-32s %lld\n", st[i].name, (long long)v.i64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: printf("    %-32s %llu\n", st[i].name, (unsigned long long)v.u64); break;
            default: printf("    %-32s %g\n", st[i].name, v.f64); break;
            }
        }
        free(st);
        if (ir_dir && write_irs(g, m, &ei, ir_dir)) rc = EXIT_VULKAN;
    }
    return rc;
}

/* ---- timing ------------------------------------------------------------------------- */

typedef enum fill { FILL_ZERO, FILL_RANDOM, FILL_IOTA, FILL_WORDS } fill;

typedef struct buffer_spec {
    uint32_t binding;
    uint64_t bytes;
    fill fill;
    uint32_t *words; /* FILL_WORDS: bytes / 4 of them */
    const char *dump; /* written here after the timed runs (--dump) */
} buffer_spec;

typedef struct buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
} buffer;

static int buffer_create(const gpu *g, uint64_t bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags want, buffer *b) {
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = bytes, .usage = usage};
    VK_CHECK(vkCreateBuffer(g->dev, &bci, NULL, &b->buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->dev, b->buf, &req);
    uint32_t t = 0;
    while (t < g->mem.memoryTypeCount && !((req.memoryTypeBits >> t & 1) && (g->mem.memoryTypes[t].propertyFlags & want) == want)) t++;
    if (t == g->mem.memoryTypeCount) return msg(EXIT_VULKAN, "no memory type for a buffer of %llu bytes", (unsigned long long)bytes);
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = t};
    VK_CHECK(vkAllocateMemory(g->dev, &ai, NULL, &b->mem));
    VK_CHECK(vkBindBufferMemory(g->dev, b->buf, b->mem, 0));
    return 0;
}

static void buffer_destroy(const gpu *g, buffer *b) {
    if (b->buf) vkDestroyBuffer(g->dev, b->buf, NULL);
    if (b->mem) vkFreeMemory(g->dev, b->mem, NULL);
    *b = (buffer){0};
}

static int submit_wait(const gpu *g, VkCommandBuffer cb) {
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK_CHECK(vkCreateFence(g->dev, &fci, NULL, &fence));
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    VkResult r = vkQueueSubmit(g->queue, 1, &si, fence);
    if (r >= 0) r = vkWaitForFences(g->dev, 1, &fence, VK_TRUE, 600ull * 1000000000ull);
    vkDestroyFence(g->dev, fence, NULL);
    if (r == VK_TIMEOUT) return msg(EXIT_VULKAN, "the GPU did not finish within 600 s");
    return r < 0 ? msg(EXIT_VULKAN, "submit or wait failed: VkResult %d", (int)r) : 0;
}

static int begin(const gpu *g, VkCommandBuffer *cb) {
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = g->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VK_CHECK(vkAllocateCommandBuffers(g->dev, &ai, cb));
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_CHECK(vkBeginCommandBuffer(*cb, &bi));
    return 0;
}

/* Device-local contents come through a host-visible staging copy, zeros from a fill. */
static int upload(const gpu *g, const buffer_spec *s, buffer *dst) {
    buffer stage = {0};
    VkCommandBuffer cb;
    int rc = begin(g, &cb);
    if (!rc && s->fill == FILL_ZERO) vkCmdFillBuffer(cb, dst->buf, 0, VK_WHOLE_SIZE, 0);
    if (!rc && s->fill != FILL_ZERO) {
        rc = buffer_create(g, s->bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &stage);
        uint32_t *w = NULL;
        if (!rc && vkMapMemory(g->dev, stage.mem, 0, VK_WHOLE_SIZE, 0, (void **)&w) < 0) rc = msg(EXIT_VULKAN, "vkMapMemory failed");
        uint32_t x = 2463534242u;
        for (uint64_t i = 0; !rc && i < s->bytes / 4; i++) {
            if (s->fill == FILL_RANDOM) x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            w[i] = s->fill == FILL_RANDOM ? x : s->fill == FILL_IOTA ? (uint32_t)i : s->words[i];
        }
        if (!rc) {
            vkUnmapMemory(g->dev, stage.mem);
            vkCmdCopyBuffer(cb, stage.buf, dst->buf, 1, &(VkBufferCopy){0, 0, s->bytes / 4 * 4});
        }
    }
    if (!rc && vkEndCommandBuffer(cb) < 0) rc = msg(EXIT_VULKAN, "vkEndCommandBuffer failed");
    if (!rc) rc = submit_wait(g, cb);
    buffer_destroy(g, &stage);
    vkFreeCommandBuffers(g->dev, g->pool, 1, &cb);
    return rc;
}

/* A buffer's contents after the work submitted before, through a host-visible copy. */
static int download(const gpu *g, const buffer *src, uint64_t bytes, const char *path) {
    buffer stage = {0};
    VkCommandBuffer cb;
    int rc = buffer_create(g, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &stage);
    if (rc) return rc;
    rc = begin(g, &cb);
    if (!rc) {
        VkMemoryBarrier in = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
        VkMemoryBarrier out = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &in, 0, NULL, 0, NULL);
        vkCmdCopyBuffer(cb, src->buf, stage.buf, 1, &(VkBufferCopy){0, 0, bytes});
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &out, 0, NULL, 0, NULL);
        if (vkEndCommandBuffer(cb) < 0) rc = msg(EXIT_VULKAN, "vkEndCommandBuffer failed");
        if (!rc) rc = submit_wait(g, cb);
        vkFreeCommandBuffers(g->dev, g->pool, 1, &cb);
    }
    void *w = NULL;
    if (!rc && vkMapMemory(g->dev, stage.mem, 0, VK_WHOLE_SIZE, 0, &w) < 0) rc = msg(EXIT_VULKAN, "vkMapMemory failed");
    if (!rc) {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(w, 1, bytes, f) != bytes) rc = msg(EXIT_USAGE, "%s: cannot write: %s", path, strerror(errno));
        if (f && fclose(f) != 0 && !rc) rc = msg(EXIT_USAGE, "%s: cannot write: %s", path, strerror(errno));
        vkUnmapMemory(g->dev, stage.mem);
    }
    buffer_destroy(g, &stage);
    return rc;
}

typedef void (*record_fn)(VkCommandBuffer cb, const void *ctx);

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* WARMUPS + runs of the recorded work in one command buffer, each between two
 * timestamps that wait for all earlier commands, a barrier between runs. */
static int time_runs(const gpu *g, record_fn record, const void *ctx, int runs, double *median, double *min) {
    if (!g->ts_mask || g->props.limits.timestampPeriod <= 0) return msg(EXIT_VULKAN, "the compute queue has no timestamps");
    uint32_t total = WARMUPS + (uint32_t)runs;
    VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                 .queryCount = 2 * total};
    VkQueryPool qp;
    VK_CHECK(vkCreateQueryPool(g->dev, &qci, NULL, &qp));
    VkCommandBuffer cb;
    int rc = begin(g, &cb);
    uint64_t *ts = calloc(2 * total, sizeof *ts);
    double *us = calloc(total, sizeof *us);
    if (!rc && (!ts || !us)) rc = msg(EXIT_VULKAN, "out of memory");
    if (!rc) {
        vkCmdResetQueryPool(cb, qp, 0, 2 * total);
        VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                              .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                               VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
        for (uint32_t r = 0; r < total; r++) {
            if (r)
                vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb,
                                     0, NULL, 0, NULL);
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, qp, 2 * r);
            record(cb, ctx);
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, qp, 2 * r + 1);
        }
        if (vkEndCommandBuffer(cb) < 0) rc = msg(EXIT_VULKAN, "vkEndCommandBuffer failed");
    }
    if (!rc) rc = submit_wait(g, cb);
    if (!rc && vkGetQueryPoolResults(g->dev, qp, 0, 2 * total, 2 * total * sizeof *ts, ts, sizeof *ts,
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) < 0)
        rc = msg(EXIT_VULKAN, "vkGetQueryPoolResults failed");
    if (!rc) {
        for (int r = 0; r < runs; r++) {
            uint32_t q = 2 * (WARMUPS + (uint32_t)r);
            us[r] = (double)((ts[q + 1] - ts[q]) & g->ts_mask) * g->props.limits.timestampPeriod / 1000.0;
        }
        qsort(us, (size_t)runs, sizeof *us, cmp_double);
        *median = runs % 2 ? us[runs / 2] : (us[runs / 2 - 1] + us[runs / 2]) / 2;
        *min = us[0];
    }
    free(ts);
    free(us);
    vkFreeCommandBuffers(g->dev, g->pool, 1, &cb);
    vkDestroyQueryPool(g->dev, qp, NULL);
    return rc;
}

typedef struct dispatch_ctx {
    const pipeline *p;
    VkDescriptorSet set;
    uint32_t groups[3];
    uint32_t push_bytes;
} dispatch_ctx;

static void record_dispatch(VkCommandBuffer cb, const void *ctx) {
    const dispatch_ctx *d = ctx;
    static const uint32_t zeros[64];
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, d->p->pipe);
    if (d->set) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, d->p->layout, 0, 1, &d->set, 0, NULL);
    if (d->push_bytes) vkCmdPushConstants(cb, d->p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, d->push_bytes, zeros);
    vkCmdDispatch(cb, d->groups[0], d->groups[1], d->groups[2]);
}

typedef struct copy_ctx {
    VkBuffer src, dst;
    uint64_t bytes;
} copy_ctx;

static void record_copy(VkCommandBuffer cb, const void *ctx) {
    const copy_ctx *c = ctx;
    vkCmdCopyBuffer(cb, c->src, c->dst, 1, &(VkBufferCopy){0, 0, c->bytes});
}

static int time_module(const gpu *g, const module *m, const pipeline *p, const buffer_spec *specs, int n_specs,
                       const uint32_t groups[3], int runs) {
    if (m->max_set > 0) return msg(EXIT_USAGE, "%s: --time binds set 0 only; this module uses set %u", m->path, m->max_set);
    buffer bufs[MAX_BINDINGS] = {{0}};
    VkDescriptorBufferInfo info[MAX_BINDINGS];
    VkWriteDescriptorSet wr[MAX_BINDINGS];
    VkDescriptorPool pool = VK_NULL_HANDLE;
    dispatch_ctx d = {.p = p, .groups = {groups[0], groups[1], groups[2]},
                      .push_bytes = m->push_constants ? (g->props.limits.maxPushConstantsSize < 256 ? g->props.limits.maxPushConstantsSize : 256) : 0};
    int rc = 0;
    for (uint32_t k = 0; k < m->nb && !rc; k++) {
        const buffer_spec *s = NULL;
        for (int i = 0; i < n_specs; i++)
            if (specs[i].binding == m->b[k].binding) s = &specs[i];
        int uniform = m->b[k].type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        if (!s) {
            rc = msg(EXIT_USAGE, "%s: binding %u (%s buffer) needs %s", m->path, m->b[k].binding, uniform ? "uniform" : "storage",
                     uniform ? "--uniform B=W0,W1,..." : "--buffer B=BYTES");
            break;
        }
        uint64_t limit = uniform ? g->props.limits.maxUniformBufferRange : g->props.limits.maxStorageBufferRange;
        if (s->bytes > limit) {
            rc = msg(EXIT_USAGE, "binding %u: %llu bytes exceed the device's range of %llu", s->binding,
                     (unsigned long long)s->bytes, (unsigned long long)limit);
            break;
        }
        rc = buffer_create(g, s->bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &bufs[k]);
        if (!rc) rc = upload(g, s, &bufs[k]);
        info[k] = (VkDescriptorBufferInfo){bufs[k].buf, 0, VK_WHOLE_SIZE};
        wr[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = m->b[k].binding,
                                       .descriptorCount = 1, .descriptorType = m->b[k].type, .pBufferInfo = &info[k]};
    }
    if (!rc && m->nb) {
        VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAX_BINDINGS}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAX_BINDINGS}};
        VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 2,
                                          .pPoolSizes = sizes};
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorSetCount = 1,
                                          .pSetLayouts = &p->sets[0]};
        if (vkCreateDescriptorPool(g->dev, &pci, NULL, &pool) < 0 || (ai.descriptorPool = pool, vkAllocateDescriptorSets(g->dev, &ai, &d.set) < 0))
            rc = msg(EXIT_VULKAN, "descriptor set allocation failed");
        for (uint32_t k = 0; !rc && k < m->nb; k++) wr[k].dstSet = d.set;
        if (!rc) vkUpdateDescriptorSets(g->dev, m->nb, wr, 0, NULL);
    }
    double med, min;
    if (!rc) rc = time_runs(g, record_dispatch, &d, runs, &med, &min);
    if (!rc)
        printf("  time: median %.3f us, min %.3f us (%d runs after %d warm-ups, groups %u,%u,%u)\n", med, min, runs, WARMUPS,
               groups[0], groups[1], groups[2]);
    for (uint32_t k = 0; !rc && k < m->nb; k++) {
        const buffer_spec *s = NULL;
        for (int i = 0; i < n_specs; i++)
            if (specs[i].binding == m->b[k].binding) s = &specs[i];
        if (s->dump && !(rc = download(g, &bufs[k], s->bytes, s->dump)))
            printf("  binding %u: %llu bytes written to %s\n", s->binding, (unsigned long long)s->bytes, s->dump);
    }
    if (pool) vkDestroyDescriptorPool(g->dev, pool, NULL);
    for (uint32_t k = 0; k < m->nb; k++) buffer_destroy(g, &bufs[k]);
    return rc;
}

static int time_copy(const gpu *g, uint64_t bytes, int runs) {
    buffer src = {0}, dst = {0};
    VkBufferUsageFlags use = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    buffer_spec zero = {.bytes = bytes};
    int rc = buffer_create(g, bytes, use, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &src);
    if (!rc) rc = buffer_create(g, bytes, use, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &dst);
    if (!rc) rc = upload(g, &zero, &src);
    double med, min;
    copy_ctx c = {src.buf, dst.buf, bytes};
    if (!rc) rc = time_runs(g, record_copy, &c, runs, &med, &min);
    if (!rc)
        printf("copy of %llu bytes: median %.3f us, min %.3f us (%d runs after %d warm-ups; %.1f GB/s read+write at the median)\n",
               (unsigned long long)bytes, med, min, runs, WARMUPS, 2.0 * (double)bytes / (med * 1e3));
    buffer_destroy(g, &src);
    buffer_destroy(g, &dst);
    return rc;
}

/* ---- arguments ------------------------------------------------------------------------ */

/* 1000, 64K, 256M, 1G (binary multiples), 2^28; 0 if malformed. */
static uint64_t parse_size(const char *s, const char **end) {
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 10);
    if (e == s || errno || *s == '-') return 0;
    if (*e == '^' && v == 2) {
        unsigned long long k = strtoull(e + 1, &e, 10);
        v = k < 63 ? 1ull << k : 0;
    } else if (*e == 'K' || *e == 'M' || *e == 'G') {
        int shift = *e == 'K' ? 10 : *e == 'M' ? 20 : 30;
        v = v < (1ull << (63 - shift)) ? v << shift : 0;
        e++;
    }
    if (end) *end = e;
    else if (*e) return 0;
    return v;
}

static int parse_spec(const char *arg, int words, buffer_spec *s) {
    char *e;
    s->binding = (uint32_t)strtoul(arg, &e, 10);
    if (e == arg || *e != '=') return msg(EXIT_USAGE, "'%s': expected BINDING=...", arg);
    const char *v = e + 1;
    if (words) {
        size_t n = 1;
        for (const char *c = v; *c; c++) n += *c == ',';
        s->words = calloc(n < 4 ? 4 : n, 4); /* a uniform block of at least 16 bytes */
        s->bytes = 4 * (n < 4 ? 4 : n);
        s->fill = FILL_WORDS;
        for (size_t i = 0; i < n; i++) {
            s->words[i] = (uint32_t)strtoul(v, &e, 0);
            if (e == v || (*e && *e != ',')) return msg(EXIT_USAGE, "'%s': words are 32-bit numbers separated by commas", arg);
            v = e + 1;
        }
        return 0;
    }
    if (*v == '@') {
        FILE *f = fopen(v + 1, "rb");
        if (!f) return msg(EXIT_USAGE, "'%s': cannot open %s: %s", arg, v + 1, strerror(errno));
        long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        int ok = len > 0 && len % 4 == 0 && len <= (1L << 32) && fseek(f, 0, SEEK_SET) == 0;
        s->words = ok ? malloc((size_t)len) : NULL;
        ok = s->words && fread(s->words, 1, (size_t)len, f) == (size_t)len;
        fclose(f);
        if (!ok) return msg(EXIT_USAGE, "'%s': not a readable file of a positive multiple of 4 bytes (at most 4 GiB)", arg);
        s->bytes = (uint64_t)len;
        s->fill = FILL_WORDS;
        return 0;
    }
    const char *rest;
    s->bytes = parse_size(v, &rest);
    if (!s->bytes || s->bytes % 4) return msg(EXIT_USAGE, "'%s': BYTES must be a positive multiple of 4", arg);
    s->fill = FILL_ZERO;
    if (*rest == ':') {
        rest++;
        if (strcmp(rest, "random") == 0) s->fill = FILL_RANDOM;
        else if (strcmp(rest, "iota") == 0) s->fill = FILL_IOTA;
        else if (strcmp(rest, "zero") != 0) return msg(EXIT_USAGE, "'%s': fill is zero, random or iota", arg);
    } else if (*rest) {
        return msg(EXIT_USAGE, "'%s': expected BYTES[:zero|random|iota]", arg);
    }
    return 0;
}

static int usage(void) {
    fputs("usage: wgscan-vkstats [--entry NAME] [--ir DIR] [--no-robust] [--no-validate] FILE.spv ...\n"
          "       wgscan-vkstats --time --groups X[,Y[,Z]] [--runs R] [--buffer B=BYTES[:zero|random|iota]|B=@FILE]...\n"
          "                      [--uniform B=W0,W1,...]... [--dump B=FILE]... FILE.spv ...\n"
          "       wgscan-vkstats --copy BYTES [--runs R]\n"
          "BYTES: 4096, 64K, 256M, 1G or 2^28; B=@FILE fills binding B with FILE. --dump B=FILE writes binding B\n"
          "after the last run (one FILE.spv only). Exit status: 0 ok, 2 bad usage or input, 3 Vulkan error.\n",
          stderr);
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    const char *entry = NULL, *ir_dir = NULL;
    int timing = 0, runs = 20, robust = 1, check = 1, n_specs = 0, n_mods = 0;
    uint64_t copy_bytes = 0;
    uint32_t groups[3] = {0, 1, 1};
    buffer_spec specs[MAX_SPECS];
    const char *dumps[MAX_SPECS];
    int n_dumps = 0;
    module *mods = calloc((size_t)argc, sizeof *mods);
    if (!mods) return msg(EXIT_USAGE, "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = strcmp(a, "--entry") == 0 || strcmp(a, "--ir") == 0 || strcmp(a, "--runs") == 0 || strcmp(a, "--groups") == 0 ||
                    strcmp(a, "--buffer") == 0 || strcmp(a, "--uniform") == 0 || strcmp(a, "--copy") == 0 ||
                    strcmp(a, "--dump") == 0;
        if (takes && !v) return msg(EXIT_USAGE, "%s needs a value", a);
        if (strcmp(a, "--entry") == 0) entry = v;
        else if (strcmp(a, "--ir") == 0) ir_dir = v;
        else if (strcmp(a, "--time") == 0) timing = 1;
        else if (strcmp(a, "--no-robust") == 0) robust = 0;
        else if (strcmp(a, "--no-validate") == 0) check = 0;
        else if (strcmp(a, "--runs") == 0) {
            runs = atoi(v);
            if (runs < 1 || runs > 10000) return msg(EXIT_USAGE, "--runs is 1..10000");
        } else if (strcmp(a, "--groups") == 0) {
            char end;
            int got = sscanf(v, "%u,%u,%u%c", &groups[0], &groups[1], &groups[2], &end);
            if (got < 1 || got > 3 || !groups[0] || !groups[1] || !groups[2] || strspn(v, "0123456789,") != strlen(v))
                return msg(EXIT_USAGE, "--groups X[,Y[,Z]], each at least 1");
        } else if (strcmp(a, "--buffer") == 0 || strcmp(a, "--uniform") == 0) {
            if (n_specs == MAX_SPECS) return msg(EXIT_USAGE, "at most %d buffers", MAX_SPECS);
            specs[n_specs] = (buffer_spec){0};
            if (parse_spec(v, a[2] == 'u', &specs[n_specs])) return EXIT_USAGE;
            for (int k = 0; k < n_specs; k++)
                if (specs[k].binding == specs[n_specs].binding) return msg(EXIT_USAGE, "binding %u given twice", specs[k].binding);
            n_specs++;
        } else if (strcmp(a, "--dump") == 0) {
            if (n_dumps == MAX_SPECS) return msg(EXIT_USAGE, "at most %d dumps", MAX_SPECS);
            char *e;
            strtoul(v, &e, 10);
            if (e == v || *e != '=' || !e[1]) return msg(EXIT_USAGE, "--dump B=FILE: '%s'", v);
            dumps[n_dumps++] = v;
        } else if (strcmp(a, "--copy") == 0) {
            if (!(copy_bytes = parse_size(v, NULL)) || copy_bytes % 4) return msg(EXIT_USAGE, "--copy BYTES: a positive multiple of 4");
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            return 0;
        } else if (a[0] == '-') {
            msg(EXIT_USAGE, "unknown option %s", a);
            return usage();
        } else {
            mods[n_mods++].path = a;
        }
        i += takes;
    }
    if (copy_bytes && (n_mods || timing)) return msg(EXIT_USAGE, "--copy runs alone: no files, no --time");
    if (!copy_bytes && !n_mods) return usage();
    if (timing && !groups[0]) return msg(EXIT_USAGE, "--time needs --groups X[,Y[,Z]]");
    if (n_dumps && (!timing || n_mods != 1)) return msg(EXIT_USAGE, "--dump goes with --time and one FILE.spv");
    for (int i = 0; i < n_dumps; i++) {
        char *e;
        uint32_t b = (uint32_t)strtoul(dumps[i], &e, 10);
        int k = 0;
        while (k < n_specs && specs[k].binding != b) k++;
        if (k == n_specs) return msg(EXIT_USAGE, "--dump %s: binding %u has no --buffer or --uniform", dumps[i], b);
        if (specs[k].dump) return msg(EXIT_USAGE, "binding %u dumped twice", b);
        specs[k].dump = e + 1;
    }

    int rc = 0;
    for (int i = 0; i < n_mods; i++)
        if (read_file(&mods[i]) || reflect(&mods[i], entry)) mods[i].path = NULL, rc = EXIT_USAGE;
    for (int i = 0; check && i < n_mods; i++) {
        int v = mods[i].path ? validate(&mods[i]) : 0;
        if (v > 0) rc = msg(EXIT_USAGE, "%s: refused by spirv-val (--no-validate skips it)", mods[i].path), mods[i].path = NULL;
        if (v < 0) check = 0, msg(0, "note: no spirv-val (Debian: spirv-tools; or $SPIRV_VAL): modules go to the driver unchecked");
    }
    int usable = 0;
    for (int i = 0; i < n_mods; i++) usable += mods[i].path != NULL;
    if (!usable && !copy_bytes) return rc;
    gpu g = {0};
    int grc = gpu_open(&g, robust);
    if (!grc && copy_bytes) grc = time_copy(&g, copy_bytes, runs);
    for (int i = 0; !grc && i < n_mods; i++) {
        module *m = &mods[i];
        if (!m->path) continue;
        printf("%s: entry %s, workgroup %ux%ux%u, bindings", m->path, m->entry, m->local[0], m->local[1], m->local[2]);
        for (uint32_t k = 0; k < m->nb; k++)
            printf(" %u.%u %s", m->b[k].set, m->b[k].binding, m->b[k].type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? "uniform" : "storage");
        printf("%s%s\n", m->nb ? "" : " none", m->push_constants ? ", push constants" : "");
        pipeline p = {0};
        int prc = pipeline_create(&g, m, &p, ir_dir);
        if (!prc && g.exec_props) prc = print_stats(&g, m, p.pipe, ir_dir);
        if (!prc && timing) prc = time_module(&g, m, &p, specs, n_specs, groups, runs);
        pipeline_destroy(&g, &p);
        if (prc) rc = prc;
    }
    gpu_close(&g);
    for (int i = 0; i < n_mods; i++) free(mods[i].words);
    for (int i = 0; i < n_specs; i++) free(specs[i].words);
    free(mods);
    return grc ? grc : rc;
}
