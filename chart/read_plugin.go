package chart

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/rules"
)

// plugin reads `plugin:`. Its name need not be in plugins: (the runtime
// also finds plugins in its plugin directory).
func (l *loader) plugin(e entry, s *StageSpec) *PluginStageSpec {
	sid := s.ID
	m, ok := l.block(e, sid, "plugin", pluginKeys)
	if !ok {
		return nil
	}
	p := &PluginStageSpec{Into: s.ID}
	if ne, ok := m.get("name"); !ok {
		l.missing(m, "name", e.keyPos, sid, "plugin has no name: name the stage plugin to call, such as name: http-probe")
	} else {
		p.Name, _ = l.word(ne, sid, "plugin name")
	}
	if ae, ok := m.get("args"); ok {
		if am, ok := l.asMap(ae.val, ae.keyPos, sid, "plugin args"); ok {
			for _, a := range am.entries {
				switch a.val.(type) {
				case *ast.SequenceNode, *ast.MappingNode, *ast.MappingValueNode:
					v, ok := l.value(a.val, sid, 0)
					if ok {
						p.Args = append(p.Args, Assign{Key: a.key, Expr: rules.Literal(v), Src: rules.Literal(v).String(), Pos: a.valPos})
					}
				default:
					if as, ok := l.valuer(a, sid, fmt.Sprintf("plugin arg %q", a.key), a.key); ok {
						p.Args = append(p.Args, as)
					}
				}
			}
		}
	}
	if ie, ok := m.get("into"); ok {
		p.Into, _ = l.word(ie, sid, "plugin into")
	}
	return p
}
