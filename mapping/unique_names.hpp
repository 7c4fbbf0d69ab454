// Scene names made unique the way Blender does it on import: a taken name gets `_2`, `_3`, ...
#pragma once

#include <set>
#include <string>

namespace msh::mapping {

class UniqueNames {
  public:
    std::string unique(const std::string& wanted) {
        std::string name = wanted;
        for (int n = 2; used_.count(name); ++n) name = wanted + "_" + std::to_string(n);
        used_.insert(name);
        return name;
    }

  private:
    std::set<std::string> used_;
};

} // namespace msh::mapping
