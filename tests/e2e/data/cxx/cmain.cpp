// cmain.cpp — a C++ main linking an instrumented C object (counter.c):
// before `kcsan-scan c++` existed this failed to link (undefined reference
// to __tsan_func_entry).  Four std::threads add to the C counter.
#include <cstdio>
#include <thread>
#include <vector>

#include "counter.h"

int main()
{
	std::vector<std::thread> t;

	for (int i = 0; i < 4; i++)
		t.emplace_back([] {
			for (int j = 0; j < 1000; j++)
				counter_add(1);
		});
	for (auto &th : t)
		th.join();
	std::printf("count=%ld\n", counter_get());
	return counter_get() == 4000 ? 0 : 1;
}
