#include "views/graph/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <chrono>
#include <mutex>
#include <string>

namespace npu::views {
namespace {

std::mutex& graphvizMutex() {
    static std::mutex m;
    return m;
}

// cgraph takes char* for names and values it does not modify.
char* cstr(const char* s) { return const_cast<char*>(s); }

}  // namespace

LayoutResult layoutWithDot(const LayoutRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    LayoutResult result;
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = gvContext();
    if (!gvc) {
        result.error = "Graphviz: gvContext failed";
        return result;
    }
    Agraph_t* g = agopen(cstr("g"), Agdirected, nullptr);
    agattr(g, AGRAPH, cstr("rankdir"), cstr("TB"));
    agattr(g, AGRAPH, cstr("nodesep"), cstr("0.25"));
    agattr(g, AGRAPH, cstr("ranksep"), cstr("0.35"));
    // Polyline routing keeps 1,000+ node graphs well under a second; splines=true
    // costs several times more on deep models for little visual gain.
    agattr(g, AGRAPH, cstr("splines"), cstr("polyline"));
    // Crossing minimisation dominates on deep graphs and grows superlinearly; fewer
    // passes keep a 1,000-node model near half a second with layouts that still read
    // well for the chain-like DAGs of neural networks.
    if (request.nodes.size() > 300) agattr(g, AGRAPH, cstr("mclimit"), cstr("0.25"));
    agattr(g, AGNODE, cstr("shape"), cstr("box"));
    agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
    agattr(g, AGNODE, cstr("label"), cstr(""));
    Agsym_t* widthSym = agattr(g, AGNODE, cstr("width"), cstr("1"));
    Agsym_t* heightSym = agattr(g, AGNODE, cstr("height"), cstr("0.4"));

    std::vector<Agnode_t*> nodes;
    nodes.reserve(request.nodes.size());
    for (size_t i = 0; i < request.nodes.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        Agnode_t* n = agnode(g, cstr(name.c_str()), 1);
        agxset(n, widthSym, cstr(std::to_string(request.nodes[i].width / 72.0).c_str()));
        agxset(n, heightSym, cstr(std::to_string(request.nodes[i].height / 72.0).c_str()));
        nodes.push_back(n);
    }
    std::vector<Agedge_t*> edges;
    edges.reserve(request.edges.size());
    for (const auto& e : request.edges) {
        const bool valid = e.from >= 0 && e.to >= 0 && static_cast<size_t>(e.from) < nodes.size() &&
                           static_cast<size_t>(e.to) < nodes.size();
        // A unique key per request edge keeps parallel edges (one per tensor) apart.
        const std::string key = "e" + std::to_string(edges.size());
        edges.push_back(valid ? agedge(g, nodes[static_cast<size_t>(e.from)], nodes[static_cast<size_t>(e.to)],
                                       cstr(key.c_str()), 1)
                              : nullptr);
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        result.error = "Graphviz: dot layout failed (is the dot layout plugin installed?)";
        agclose(g);
        gvFreeContext(gvc);
        return result;
    }
    const boxf bb = GD_bb(g);
    result.width = bb.UR.x - bb.LL.x;
    result.height = bb.UR.y - bb.LL.y;
    auto flip = [&](pointf p) { return LayoutPoint{p.x - bb.LL.x, bb.UR.y - p.y}; };
    for (Agnode_t* n : nodes) result.centers.push_back(flip(ND_coord(n)));
    for (Agedge_t* e : edges) {
        std::vector<LayoutPoint> pts;
        if (e && ED_spl(e) && ED_spl(e)->size > 0) {
            const bezier& bz = ED_spl(e)->list[0];
            for (int k = 0; k < bz.size; ++k) pts.push_back(flip(bz.list[k]));
            if (bz.eflag) pts.push_back(flip(bz.ep));  // arrow tip
        }
        result.edges.push_back(std::move(pts));
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace npu::views
