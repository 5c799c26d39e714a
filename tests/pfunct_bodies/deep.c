/* pfunct -i: blocks nested deeper than 1.24 indents (16 tabs) */
int deep(int x)
{
  { volatile int v0 = x + 0;
    { volatile int v1 = x + 1;
      { volatile int v2 = x + 2;
        { volatile int v3 = x + 3;
          { volatile int v4 = x + 4;
            { volatile int v5 = x + 5;
              { volatile int v6 = x + 6;
                { volatile int v7 = x + 7;
                  { volatile int v8 = x + 8;
                    { volatile int v9 = x + 9;
                      { volatile int v10 = x + 10;
                        { volatile int v11 = x + 11;
                          { volatile int v12 = x + 12;
                            { volatile int v13 = x + 13;
                              { volatile int v14 = x + 14;
                                { volatile int v15 = x + 15;
                                  { volatile int v16 = x + 16;
                                    { volatile int v17 = x + 17;
                                      { volatile int v18 = x + 18;
                                        { volatile int v19 = x + 19;
                                          x += v0;
                                        x += v19; }
                                      x += v18; }
                                    x += v17; }
                                  x += v16; }
                                x += v15; }
                              x += v14; }
                            x += v13; }
                          x += v12; }
                        x += v11; }
                      x += v10; }
                    x += v9; }
                  x += v8; }
                x += v7; }
              x += v6; }
            x += v5; }
          x += v4; }
        x += v3; }
      x += v2; }
    x += v1; }
  x += v0; }
  return x;
}
