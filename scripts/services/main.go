// Command ferretdb runs FerretDB (a MongoDB-protocol server) with its SQLite
// backend, on loopback, for development and tests. See scripts/services.sh.
// With -postgresql-url it runs the same FerretDB on its PostgreSQL backend instead
// (scripts/bench/backends.ts measures both; docs/scaling.md has the figures).
package main

import (
	"context"
	"flag"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("dir", "data/ferretdb", "directory for the SQLite files")
	pgURL := flag.String("postgresql-url", "", "use the PostgreSQL backend at this URL instead of SQLite")
	flag.Parse()

	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		log.Fatal(err)
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	config := ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: *listen},
		Logger:   logger,
		Handler:  "sqlite",
		// _txlock=immediate: FerretDB 1.24 writes (insert, update, delete) in a transaction that
		// reads before it writes. SQLite begins a transaction deferred by default, so under
		// concurrent writes one that read an older snapshot cannot take the write lock and fails at
		// once with SQLITE_BUSY ("database is locked"), without waiting out busy_timeout: the soak's
		// 50 requests a second lost intake saves, checkouts and contact messages that way. BEGIN
		// IMMEDIATE takes the write lock first, so writers queue on busy_timeout (10 s) instead.
		// Reads run outside transactions and are unaffected. Upstream's default is deferred.
		SQLiteURL: "file:" + abs + "/?_txlock=immediate",
	}
	backend := "sqlite in " + abs
	if *pgURL != "" {
		config.Handler, config.PostgreSQLURL, config.SQLiteURL = "postgresql", *pgURL, ""
		backend = "postgresql"
	}
	f, err := ferretdb.New(&config)
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	log.Printf("ferretdb listening on %s (%s)", *listen, backend)
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
