/*
 * feroce-topo.h - a fabric: named nodes with roles, the models (settings) they use, and links
 * with their rate, delay and loss; read from feroce's topology file or the HPCC simulator's,
 * checked, written back in either, and made by the generators (feroce-topo-gen.h).
 *
 * feroce's file (src/feroce/doc/fabric.md):
 *
 *   feroce-topology 1
 *   model tor BufferSize=12000000 Kmin=100000 Kmax=400000 Pmax=0.2
 *   node h0 host
 *   node leaf0 switch model=tor PfcEnabled=false
 *   link h0 leaf0 25Gbps 1us [error=0.001]
 *   down leaf0 spine0 20ms [60ms]
 *
 * A setting is KEY=VALUE: an attribute of the node's ns-3 object (FeroceSwitch for a switch,
 * RoceNic for the others), checked when the fabric is built; a node's own settings come after
 * its model's.  The HPCC simulator's file ("N S L", the switch ids, "src dst rate delay
 * error_rate" per link) is read as it is: its nodes are named by their number.
 *
 * Rules a fabric must follow (feroce_topo_check): a link joins two different nodes, at most one
 * link joins two nodes, a node that is not a switch has exactly one link (a host has one NIC),
 * every node reaches every other.  An outage ("down A B AT [UP]": the link of A and B goes down at
 * AT and comes back at UP, or stays down) names a link declared above, comes back after it went
 * down, and does not overlap another outage of the same link.
 */
#ifndef FEROCE_TOPO_H
#define FEROCE_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum feroce_role {
    FEROCE_ROLE_HOST = 0, /* a server (the peers' hosts) */
    FEROCE_ROLE_BOARD,    /* a camera's front-end board */
    FEROCE_ROLE_RECEIVER, /* an event-building receiver */
    FEROCE_ROLE_SWITCH,
    FEROCE_ROLE_COUNT
};

/* "host", "board", "receiver", "switch". */
const char *feroce_role_name(enum feroce_role role);

struct feroce_setting {
    char *key;
    char *value;
    int line; /* where it was written (0: made by a program) */
};

/* Named settings nodes refer to (a switch model: its buffer, ECN, PFC...). */
struct feroce_topo_model {
    char *name;
    struct feroce_setting *settings;
    size_t n_settings;
    int line;
};

struct feroce_topo_node {
    char *name;
    enum feroce_role role;
    int model; /* index into models, -1: none */
    struct feroce_setting *settings;
    size_t n_settings;
    int line;
};

struct feroce_topo_link {
    uint32_t a, b; /* node indices; a's port is made first */
    uint64_t rate_bps;
    int64_t delay_ns;  /* propagation, each way */
    double error_rate; /* fraction of frames lost at each receiving end */
    int line;
};

/* A link's outage: down from down_ns, up again at up_ns (-1: it stays down). */
struct feroce_topo_outage {
    uint32_t link;
    int64_t down_ns, up_ns;
    int line;
};

enum feroce_topo_format {
    FEROCE_TOPO_FEROCE, /* feroce-topology 1 */
    FEROCE_TOPO_HPCC    /* N S L, the switch ids, the links */
};

struct feroce_topo {
    char *path; /* the file, or what made it ("fat-tree k=4") */
    enum feroce_topo_format format;
    struct feroce_topo_node *nodes;
    size_t n_nodes, nodes_cap;
    struct feroce_topo_link *links;
    size_t n_links, links_cap;
    struct feroce_topo_model *models;
    size_t n_models, models_cap;
    struct feroce_topo_outage *outages; /* in the order written */
    size_t n_outages, outages_cap;
    /* name -> node index (open addressing; -1 empty) */
    int32_t *index;
    size_t index_cap;
};

void feroce_topo_init(struct feroce_topo *t, const char *path);
void feroce_topo_free(struct feroce_topo *t);

/* A node (a new name; -1 if the name is taken), a model (-1 likewise), a link; each returns the
 * new index.  Settings are copied. */
int feroce_topo_add_node(struct feroce_topo *t, const char *name, enum feroce_role role, int model, int line);
int feroce_topo_add_model(struct feroce_topo *t, const char *name, int line);
int feroce_topo_add_link(struct feroce_topo *t, uint32_t a, uint32_t b, uint64_t rate_bps, int64_t delay_ns,
                         double error_rate, int line);
void feroce_topo_node_set(struct feroce_topo *t, uint32_t node, const char *key, const char *value, int line);
void feroce_topo_model_set(struct feroce_topo *t, uint32_t model, const char *key, const char *value,
                           int line);

/* An outage of a link (up_ns -1: for good); 0, or -1 with "PATH:LINE: what is wrong" in err when it
 * comes back before it goes down or overlaps another outage of the link. */
int feroce_topo_add_outage(struct feroce_topo *t, uint32_t link, int64_t down_ns, int64_t up_ns, int line,
                           char *err, size_t errlen);
/* The link that joins nodes a and b (either way round), or -1. */
int feroce_topo_find_link(const struct feroce_topo *t, uint32_t a, uint32_t b);

/* The node named name, or -1. */
int feroce_topo_find(const struct feroce_topo *t, const char *name);
int feroce_topo_find_model(const struct feroce_topo *t, const char *name);
static inline int feroce_topo_is_switch(const struct feroce_topo *t, uint32_t node)
{
    return t->nodes[node].role == FEROCE_ROLE_SWITCH;
}

/* Reads a topology file, feroce's or the HPCC simulator's (told apart by the first line), and
 * checks it.  0, or -1 with "FILE:LINE: what is wrong" in err (t is then empty). */
int feroce_topo_read(const char *path, struct feroce_topo *t, char *err, size_t errlen);

/* The rules above; 0, or -1 with "PATH:LINE: what is wrong" (the line of the link or node at
 * fault, when it has one). */
int feroce_topo_check(const struct feroce_topo *t, char *err, size_t errlen);

/* Writes the fabric in a format.  The HPCC simulator's numbers the nodes in their order and knows
 * switches and hosts only (boards and receivers become hosts); it has no names, models, settings
 * or outages (its LINK_DOWN is a key of its configuration): -1 with why in err when the fabric has
 * them. */
int feroce_topo_write(const struct feroce_topo *t, FILE *f, enum feroce_topo_format format, char *err,
                      size_t errlen);

/* The link of each node's NIC (a node that is not a switch has one): out[node] = link index,
 * or UINT32_MAX for a switch. */
void feroce_topo_host_links(const struct feroce_topo *t, uint32_t *out);

/* The number of links from src to every node (out[node]; UINT32_MAX: not reachable), crossing
 * switches only, as frames do (breadth first). */
void feroce_topo_distances(const struct feroce_topo *t, uint32_t src, uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_TOPO_H */
