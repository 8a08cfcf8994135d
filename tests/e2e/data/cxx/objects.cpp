// objects.cpp — a correct C++ program for `kcsan-scan c++`: std::thread,
// std::atomic, and objects of a class with virtual methods built by one
// thread, published with a release store and used (virtual calls) by
// another after an acquire load.  Must build, run and exit 0 without a
// report.
#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

struct Shape {
	virtual ~Shape() {}
	virtual long area() const = 0;
};

struct Rect : Shape {
	long w, h;
	Rect(long w_, long h_) : w(w_), h(h_) {}
	long area() const override { return w * h; }
};

struct Square : Rect {
	explicit Square(long s) : Rect(s, s) {}
	long area() const override { return Rect::area(); }
};

static std::atomic<Shape *> slot{nullptr};
static std::atomic<int> done{0};

int main()
{
	const int n = 2000;
	long sum = 0, want = 0;

	for (int i = 0; i < n; i++)
		want += (i % 2) ? (long)i * i : (long)i * 3;
	std::thread producer([&] {
		for (int i = 0; i < n; i++) {
			Shape *s = (i % 2) ? static_cast<Shape *>(new Square(i))
					   : static_cast<Shape *>(new Rect(i, 3));
			Shape *expected = nullptr;
			while (!slot.compare_exchange_weak(expected, s, std::memory_order_release,
							   std::memory_order_relaxed))
				expected = nullptr;
		}
		done.store(1, std::memory_order_release);
	});
	std::thread consumer([&] {
		for (int got = 0; got < n;) {
			Shape *s = slot.exchange(nullptr, std::memory_order_acquire);
			if (!s)
				continue;
			sum += s->area();
			delete s;
			got++;
		}
	});
	producer.join();
	consumer.join();
	std::vector<std::unique_ptr<Shape>> v;
	v.emplace_back(new Rect(2, 5));
	v.emplace_back(new Square(4));
	for (auto &s : v)
		sum += s->area() - s->area();
	std::printf("sum=%ld want=%ld done=%d\n", sum, want, done.load());
	return sum == want ? 0 : 1;
}
