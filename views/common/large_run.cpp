#include "views/common/large_run.h"

#include <QThreadPool>

namespace npu::views {

QThreadPool* analysisThreadPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;  // lives to the end of the process, like the global pool
        p->setMaxThreadCount(2);
        return p;
    }();
    return pool;
}

}  // namespace npu::views
