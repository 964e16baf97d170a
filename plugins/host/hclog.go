package host

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"

	"github.com/hashicorp/go-hclog"
)

// slogger adapts a *slog.Logger to the hclog.Logger go-plugin writes to.
// go-plugin's own messages (the root logger) go to Debug; a plugin's
// stderr lines (a named logger) keep their level, plain lines at Info.
type slogger struct {
	l     *slog.Logger
	mask  func(string) string // WithMask's; nil: none
	name  string
	args  []any
	level hclog.Level
}

func newSlogger(l *slog.Logger, mask func(string) string) hclog.Logger {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return &slogger{l: l, mask: mask, level: hclog.Trace}
}

func (s *slogger) Log(level hclog.Level, msg string, args ...interface{}) {
	lv := slog.LevelDebug
	if s.name != "" && s.name != "stdio" {
		switch level {
		case hclog.Trace:
			lv = slog.LevelDebug - 4
		case hclog.Debug, hclog.Info, hclog.NoLevel:
			lv = slog.LevelInfo
		case hclog.Warn:
			lv = slog.LevelWarn
		case hclog.Error:
			lv = slog.LevelError
		}
	}
	ctx := context.Background()
	if !s.l.Enabled(ctx, lv) {
		return
	}
	all := make([]any, 0, len(s.args)+len(args)+2)
	if s.name != "" {
		all = append(all, "plugin", s.name)
	}
	all = append(all, s.args...)
	all = append(all, args...)
	if s.mask != nil {
		// go-plugin logs a plugin's stderr line as msg, or, for a JSON
		// line, its fields as args: every value is shown as text, so
		// each is masked as text.
		msg = s.mask(msg)
		for i := range all {
			if str, ok := all[i].(string); ok {
				all[i] = s.mask(str)
			} else if all[i] != nil {
				if txt := fmt.Sprint(all[i]); s.mask(txt) != txt {
					all[i] = s.mask(txt)
				}
			}
		}
	}
	s.l.Log(ctx, lv, msg, all...)
}

func (s *slogger) Trace(msg string, args ...interface{}) { s.Log(hclog.Trace, msg, args...) }
func (s *slogger) Debug(msg string, args ...interface{}) { s.Log(hclog.Debug, msg, args...) }
func (s *slogger) Info(msg string, args ...interface{})  { s.Log(hclog.Info, msg, args...) }
func (s *slogger) Warn(msg string, args ...interface{})  { s.Log(hclog.Warn, msg, args...) }
func (s *slogger) Error(msg string, args ...interface{}) { s.Log(hclog.Error, msg, args...) }
func (s *slogger) IsTrace() bool                         { return true }
func (s *slogger) IsDebug() bool                         { return true }
func (s *slogger) IsInfo() bool                          { return true }
func (s *slogger) IsWarn() bool                          { return true }
func (s *slogger) IsError() bool                         { return true }
func (s *slogger) ImpliedArgs() []interface{}            { return s.args }
func (s *slogger) Name() string                          { return s.name }
func (s *slogger) SetLevel(l hclog.Level)                { s.level = l }
func (s *slogger) GetLevel() hclog.Level                 { return s.level }

func (s *slogger) With(args ...interface{}) hclog.Logger {
	c := *s
	c.args = append(append([]any{}, s.args...), args...)
	return &c
}

func (s *slogger) Named(name string) hclog.Logger {
	c := *s
	if c.name != "" {
		name = c.name + "." + name
	}
	c.name = name
	return &c
}

func (s *slogger) ResetNamed(name string) hclog.Logger {
	c := *s
	c.name = name
	return &c
}

func (s *slogger) StandardLogger(*hclog.StandardLoggerOptions) *log.Logger {
	return log.New(s.StandardWriter(nil), "", 0)
}

func (s *slogger) StandardWriter(*hclog.StandardLoggerOptions) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		s.Debug(string(p))
		return len(p), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
