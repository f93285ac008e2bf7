package partest
